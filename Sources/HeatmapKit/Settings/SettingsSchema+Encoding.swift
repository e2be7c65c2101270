extension SettingsSchema {
    /// Settings of the tiles' encoding rather than of the heatmap: rows like ``rows``' (one
    /// name, parser and message for the query's `webp-quality=80`, the command's
    /// `--webp-quality 80`), but not in ``rows``, so neither part of a layer's settings nor of
    /// the PNG tile's cache key (a WebP is made from the PNG tile, and cached by its bytes).
    package static let encoding: [SettingRow] = [webpQuality]

    /// `webp-quality`: with WebP, lossy at quality 0...100 (absent: lossless). Its value's
    /// ``SettingValue/text`` is the quality.
    package static let webpQuality = SettingRow(
        "webp-quality", placeholder: "N",
        help: "with --format webp: lossy WebP at quality 0...100 (90 is a good\nstart; alpha stays lossless)"
    ) { (text) throws(SettingError) in
        guard let quality = Int(text), webpQualityRange.contains(quality) else {
            throw SettingError("webp-quality \"\(text)\" is not a whole number in 0...100")
        }
        return SettingValue(String(quality)) { _ in }
    }

    /// The qualities ``webpQuality`` takes (`WebPEncoder.qualityRange`).
    package static let webpQualityRange = 0...100

    /// The WebP quality `text` gives, read by ``webpQuality``.
    ///
    /// - Throws: ``SettingError`` with the row's message.
    package static func webpQuality(_ text: String) throws(SettingError) -> Int {
        // The row's canonical text is the whole number it read.
        Int(try webpQuality.parse(text).text) ?? 0
    }
}
