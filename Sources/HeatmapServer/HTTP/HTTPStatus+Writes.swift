extension HTTPStatus {
    /// 401 Unauthorized.
    public static let unauthorized = HTTPStatus(401, "Unauthorized")
    /// 403 Forbidden.
    public static let forbidden = HTTPStatus(403, "Forbidden")
    /// 411 Length Required.
    public static let lengthRequired = HTTPStatus(411, "Length Required")
    /// 413 Content Too Large.
    public static let contentTooLarge = HTTPStatus(413, "Content Too Large")
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType = HTTPStatus(415, "Unsupported Media Type")
}
