import HeatmapCore

/// A tile drawn as colour codes (0 transparent, e + 1 for colour-map entry e), a band of rows
/// at a time, into one buffer of the whole tile: one or two bytes a pixel where RGBA takes four.
/// The codes drawn are marked in ``used`` and counted in ``written``.
struct CodeCanvas<Code: ColorCode> {
    let width: Int
    let height: Int
    /// The rows of a band, as the caller draws them.
    let bandRows: Int
    /// `width × height` codes, zero (transparent) until drawn.
    let codes: UnsafeMutablePointer<Code>
    /// One byte a code, 1 for the codes drawn.
    let used: UnsafeMutablePointer<UInt8>
    let codeCount: Int
    /// Rows drawn so far, and the codes written in them (the pixels not transparent).
    private(set) var rowsDone = 0
    private(set) var written = 0

    init(width: Int, height: Int, bandRows: Int, codeCount: Int) {
        self.width = width
        self.height = height
        self.bandRows = max(1, bandRows)
        self.codeCount = codeCount
        codes = .allocate(capacity: width * height)
        codes.initialize(repeating: 0, count: width * height)
        used = .allocate(capacity: codeCount)
        used.initialize(repeating: 0, count: codeCount)
    }

    func deallocate() {
        codes.deallocate()
        used.deallocate()
    }

    /// Colours the next `rows` rows from their intensities at `values`.
    mutating func draw(_ values: UnsafePointer<Float>, rows: Int, colors: BandColorizer) {
        precondition(rows > 0 && rowsDone + rows <= height, "a band within the tile")
        written += Code.colorize(values, count: rows * width, into: codes + rowsDone * width, used: used, colors)
        rowsDone += rows
    }
}

/// A colour code of one or two bytes, drawn by ``BandColorizer``'s code for it.
protocol ColorCode: FixedWidthInteger & UnsignedInteger {
    /// ``BandColorizer/colorizeEntries(_:count:into:used:)`` for codes of this size.
    static func colorize(
        _ values: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<Self>,
        used: UnsafeMutablePointer<UInt8>, _ colors: BandColorizer
    ) -> Int
}

extension UInt8: ColorCode {
    static func colorize(
        _ values: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<UInt8>,
        used: UnsafeMutablePointer<UInt8>, _ colors: BandColorizer
    ) -> Int { colors.colorizeEntries(values, count: count, into: codes, used: used) }
}

extension UInt16: ColorCode {
    static func colorize(
        _ values: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<UInt16>,
        used: UnsafeMutablePointer<UInt8>, _ colors: BandColorizer
    ) -> Int { colors.colorizeEntries(values, count: count, into: codes, used: used) }
}

extension PNGEncoder {
    /// Where a tile's bands of intensities go: `draw(values, rows)` colours `rows` rows of
    /// intensities, top to bottom, each band `rows` long but the last.
    struct BandDrawer {
        let rows: Int
        let draw: (UnsafePointer<Float>, Int) -> Void
    }

    /// The PNG of a `width × height` tile whose intensities `body` hands to the ``BandDrawer``
    /// band by band, coloured by `colors`: as colour codes
    /// (``encodeCodes(width:height:colors:as:draw:)``: a palette PNG when the colours used
    /// allow) when the map has under 65,535 entries, else as RGBA
    /// (``encodeInBands(width:height:draw:)``). The pixels are `colors`' either way.
    static func encodeColored(
        width: Int, height: Int, colors: BandColorizer, body: (BandDrawer) -> Void
    ) throws(PNGError) -> [UInt8] {
        func codes<Code: ColorCode>(_: Code.Type) throws(PNGError) -> [UInt8] {
            try encodeCodes(width: width, height: height, colors: colors.codeColors, as: Code.self) { canvas in
                withoutActuallyEscaping({ (values: UnsafePointer<Float>, rows: Int) in
                    canvas.draw(values, rows: rows, colors: colors)
                }) { draw in body(BandDrawer(rows: canvas.bandRows, draw: draw)) }
            }
        }
        if colors.codeCount <= 256 { return try codes(UInt8.self) }
        if colors.codeCount <= 65_536 { return try codes(UInt16.self) }
        return try encodeInBands(width: width, height: height) { stream in
            withoutActuallyEscaping({ (values: UnsafePointer<Float>, rows: Int) in
                colors.colorize(values, count: rows * width, into: stream.pixels)
                stream.appendPixels(count: rows)
            }) { draw in body(BandDrawer(rows: stream.bandRows, draw: draw)) }
        }
    }

    /// The PNG of `grid` coloured by `map` with the normalisation `maximum`, drawn as the
    /// heatmap layer draws a tile (``encodeColored(width:height:colors:body:)``); `timing`
    /// wraps the colouring, for the benchmark to time it apart from the encoding.
    package static func encodeTile(
        _ grid: IntensityGrid, map: ColorMap, maximum: Double, timing: (() -> Void) -> Void = { $0() }
    ) throws(PNGError) -> [UInt8] {
        let colors = BandColorizer(map, maximum: maximum)
        return try encodeColored(width: grid.width, height: grid.height, colors: colors) { band in
            timing {
                grid.values.withUnsafeBufferPointer { values in
                    guard let base = values.baseAddress else { return }
                    var first = 0
                    while first < grid.height {
                        let rows = min(band.rows, grid.height - first)
                        band.draw(base + first * grid.width, rows)
                        first += rows
                    }
                }
            }
        }
    }

    /// The PNG of a `width × height` tile that `draw` draws as codes (``CodeCanvas``), a band of
    /// rows at a time: a palette image when its codes' colours (`colors[c]` for code c, in
    /// memory order, code 0 transparent black) number at most 256, else the RGBA PNG of
    /// ``encodeInBands(width:height:draw:)`` with the same pixels, bit for bit.
    ///
    /// The palette holds the colours used in code order (equal colours share an entry), or,
    /// with one-byte codes when that saves less than a byte for each thousand pixels it would
    /// take to renumber them and no smaller bit depth, every code up to the largest used, so
    /// that the codes are the indices as they are.
    ///
    /// - Throws: ``PNGError`` as ``encode(_:)`` does for an image of that size.
    static func encodeCodes<Code: ColorCode>(
        width: Int, height: Int, colors: [UInt32], as: Code.Type, draw: (inout CodeCanvas<Code>) -> Void
    ) throws(PNGError) -> [UInt8] {
        try checkEncodable(width: width, height: height)
        var canvas = CodeCanvas<Code>(
            width: width, height: height, bandRows: PNGBandStream.bandRows(width: width, height: height),
            codeCount: colors.count)
        defer { canvas.deallocate() }
        draw(&canvas)
        let count = width * height
        if canvas.written < count { canvas.used[0] = 1 }
        if let (palette, remap) = compactPalette(canvas, colors: colors) {
            if Code.self == UInt8.self, remap == nil {
                // The codes are the indices.
                return try canvas.codes.withMemoryRebound(to: UInt8.self, capacity: count) { (codes) throws(PNGError) in
                    try PNGEncoder().indexedPNG(indices: codes, width: width, height: height, palette: palette)
                }
            }
            let indices = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            defer { indices.deallocate() }
            renumber(
                canvas.codes, count: count, by: remap ?? (0..<colors.count).map { UInt8(truncatingIfNeeded: $0) },
                into: indices)
            return try PNGEncoder().indexedPNG(indices: indices, width: width, height: height, palette: palette)
        }
        // Over 256 colours: RGBA, the band stream's bytes.
        return try encodeInBands(width: width, height: height) { stream in
            colors.withUnsafeBufferPointer { colors in
                guard let colors = colors.baseAddress else { return }
                let pixels = stream.pixels.assumingMemoryBound(to: UInt32.self)
                var first = 0
                while first < height {
                    let rows = min(stream.bandRows, height - first)
                    let codes = canvas.codes + first * width
                    for i in 0..<(rows * width) where codes[i] != 0 {
                        pixels[i] = colors[Int(codes[i])].littleEndian
                    }
                    stream.appendPixels(count: rows)
                    first += rows
                }
            }
        }
    }

    /// The palette of the codes the canvas used and the index of each code in it (`nil`: the
    /// codes themselves, every code up to the largest used in the palette, duplicates and all),
    /// or `nil` for over 256 colours.
    static func compactPalette<Code: ColorCode>(
        _ canvas: CodeCanvas<Code>, colors: [UInt32]
    ) -> (PNGPalette, [UInt8]?)? {
        var palette = PNGPalette()
        var remap = [UInt8](repeating: 0, count: colors.count)
        var largest = 0
        for code in 0..<colors.count where canvas.used[code] != 0 {
            guard let index = palette.index(of: colors[code]) else { return nil }
            remap[code] = UInt8(truncatingIfNeeded: index)
            largest = code
        }
        guard Code.self == UInt8.self else { return (palette, remap) }
        // Every code up to the largest: the gaps cost 4 bytes each (PLTE and tRNS).
        let whole = PNGPalette(colors: Array(colors[0...largest]))
        let saved = 4 * (whole.count - palette.count)
        if whole.bitDepth == palette.bitDepth && saved * 1000 <= canvas.written { return (whole, nil) }
        return (palette, remap)
    }

    /// Writes `remap[code]` for each of the `count` codes, eight zero codes at a time.
    static func renumber<Code: ColorCode>(
        _ codes: UnsafePointer<Code>, count: Int, by remap: [UInt8], into out: UnsafeMutablePointer<UInt8>
    ) {
        remap.withUnsafeBufferPointer { remap in
            let zero = remap[0]
            var i = 0
            while i < count {
                let end = min(count, i + 8)
                var any: Code = 0
                for k in i..<end { any |= codes[k] }
                if any == 0 {
                    for k in i..<end { out[k] = zero }
                } else {
                    for k in i..<end { out[k] = remap[Int(codes[k])] }
                }
                i = end
            }
        }
    }
}
