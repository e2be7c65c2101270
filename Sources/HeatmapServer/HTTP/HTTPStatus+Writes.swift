extension HTTPStatus {
    /// 401 Unauthorized.
    package static let unauthorized = HTTPStatus(401, "Unauthorized")
    /// 403 Forbidden.
    package static let forbidden = HTTPStatus(403, "Forbidden")
    /// 411 Length Required.
    package static let lengthRequired = HTTPStatus(411, "Length Required")
    /// 413 Content Too Large.
    package static let contentTooLarge = HTTPStatus(413, "Content Too Large")
    /// 415 Unsupported Media Type.
    package static let unsupportedMediaType = HTTPStatus(415, "Unsupported Media Type")
}
