extension TileService {
    /// How a `POST`/`DELETE` body is coded, from every `Content-Encoding` field.
    enum BodyCoding: Equatable {
        /// No coding (or `identity`): the readers still inflate a body that is gzip data.
        case identity
        /// `gzip` (or `x-gzip`): the body must be gzip data.
        case gzip
    }

    /// The body's coding: every `Content-Encoding` field and list item (`identity` items
    /// dropped), refused (415) unless it is none or one gzip.
    static func bodyCoding(_ request: HTTPRequest) -> Result<BodyCoding, MediaRefusal> {
        var codings: [String] = []
        for field in request.headers where field.name.lowercased() == "content-encoding" {
            for item in field.value.split(separator: ",", omittingEmptySubsequences: false) {
                let coding = item.trimmingWhitespace().lowercased()
                if coding != "identity" { codings.append(coding) }
            }
        }
        switch codings {
        case []: return .success(.identity)
        case ["gzip"], ["x-gzip"]: return .success(.gzip)
        default:
            let named = codings.map { $0.isEmpty ? "(empty)" : $0 }.joined(separator: ", ")
            return .failure(MediaRefusal(message: "Content-Encoding \(named) is not read (gzip is, once)"))
        }
    }

    /// Why a body labelled `Content-Encoding: gzip` is not gzip data (400), or nil when it is:
    /// such a body is never read as plain text.
    static func gzipRefusal(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        if body.count >= 2 && body[0] == 0x1F && body[1] == 0x8B { return nil }
        let start = body.prefix(2).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: " ")
        return "request body: Content-Encoding is gzip, but the body is not gzip data (it starts with bytes \(start), "
            + "not 1f 8b); compress it, or send it without Content-Encoding"
    }
}
