extension PNGEncoder {
    /// The PNG of a `width × height` image that `draw` hands over a band of rows at a time, as
    /// the default encoder (``Filter/up``, ``Compressor/runLength``) writes it with
    /// ``encode(_:)``, bit for bit: `draw` is called once, draws each band into the stream's
    /// ``PNGBandStream/pixels`` (``PNGBandStream/bandRows`` rows, zero: transparent) and
    /// appends it with ``PNGBandStream/appendPixels(count:)``, top to bottom. No image of the
    /// whole is made.
    ///
    /// - Throws: ``PNGError`` as ``encode(_:)`` does for an image of that size.
    static func encodeInBands(
        width: Int, height: Int, draw: (inout PNGBandStream) -> Void
    ) throws(PNGError) -> [UInt8] {
        try checkEncodable(width: width, height: height)
        let bandRows = PNGBandStream.bandRows(width: width, height: height)
        return try PNGBandStream.with(width: width, height: height, bandRows: bandRows, filter: .up) {
            (stream) throws(PNGError) -> [UInt8] in
            draw(&stream)
            return try container(stream)
        }
    }

    /// Refuses an image PNG cannot hold: a side of 0 or past 2³¹−1, or more RGBA bytes than `Int` counts.
    ///
    /// - Throws: ``PNGError`` naming the size.
    static func checkEncodable(width: Int, height: Int) throws(PNGError) {
        let limit = Int(Int32.max)
        guard width > 0, height > 0, width <= limit, height <= limit,
            width.multipliedReportingOverflow(by: 4 * height).overflow == false
        else {
            throw PNGError(
                .invalidImage, "cannot encode a \(width)×\(height) image as PNG: sides must be 1...\(limit) pixels")
        }
    }
}
