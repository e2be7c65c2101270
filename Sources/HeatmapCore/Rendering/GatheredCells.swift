/// Pixel weights over a padded rectangle, with a record of where each row holds any.
///
/// Rows are stored `stride` floats apart, the columns past `width` left at zero, so that a
/// block of ``blockWidth`` output columns can read its sources without a bounds check. Each
/// row keeps a bit mask of its occupied chunks of columns and a count of the weights added
/// to it, for the convolution to skip empty stretches and pick a method per row.
struct GatheredCells {
    /// The output columns one register block of the convolution computes.
    static let blockWidth = 32

    /// The number of columns.
    let width: Int
    /// The number of rows.
    let height: Int
    /// Floats from one row to the next: `width` plus ``blockWidth`` of zeros.
    let stride: Int
    /// log2 of the columns one bit of a row mask stands for: 5 (32 columns) unless the grid is
    /// wider than 2048 columns, so that 64 bits always cover a row.
    let chunkShift: Int
    /// `height * stride` weights, row-major (a recycled grid's storage may hold more floats,
    /// all zero).
    var storage: [Float]
    /// For each row, bit `i` is set when a weight was added in columns `i << chunkShift`
    /// ..< `(i + 1) << chunkShift`.
    var rowChunks: [UInt64]
    /// For each row, how many weights were added to it (about its occupied pixels).
    var rowCounts: [Int32]

    /// An empty grid of `width × height` pixels.
    ///
    /// - Complexity: O(width × height), to zero the storage.
    init(width: Int, height: Int) {
        self.init(width: width, height: height, zeroedStorage: nil)
    }

    /// An empty grid of `width × height` pixels over `zeroedStorage` (all zeros, at least
    /// `(width + blockWidth) × height` floats), or fresh zeros when it is `nil`.
    init(width: Int, height: Int, zeroedStorage: [Float]?) {
        self.width = max(0, width)
        self.height = max(0, height)
        stride = self.width + Self.blockWidth
        var shift = 5
        while (self.width + (1 << shift) - 1) >> shift > 64 { shift += 1 }
        chunkShift = shift
        let count = stride * self.height
        if let zeroedStorage, zeroedStorage.count >= count {
            storage = zeroedStorage
        } else {
            storage = [Float](repeating: 0, count: count)
        }
        rowChunks = [UInt64](repeating: 0, count: self.height)
        rowCounts = [Int32](repeating: 0, count: self.height)
    }

    /// Whether no pixel holds weight.
    var isEmpty: Bool { !rowChunks.contains { $0 != 0 } }
}

extension GatheredCells {
    /// Calls `body` with a sink that adds weights to these cells: world pixel (`column`,
    /// `row`) goes to grid pixel (`column + columnOffset`, `row + rowOffset`).
    mutating func withSink<E: Error>(
        columnOffset: Int, rowOffset: Int, _ body: (inout GridSink) throws(E) -> Void
    ) throws(E) {
        let stride = self.stride
        let chunkShift = self.chunkShift
        var failure: E?
        storage.withUnsafeMutableBufferPointer { storage in
            rowChunks.withUnsafeMutableBufferPointer { chunks in
                rowCounts.withUnsafeMutableBufferPointer { counts in
                    guard let storage = storage.baseAddress, let chunks = chunks.baseAddress,
                        let counts = counts.baseAddress
                    else { return }
                    var sink = GridSink(
                        cells: storage, rowChunks: chunks, rowCounts: counts, stride: stride, chunkShift: chunkShift,
                        columnOffset: columnOffset, rowOffset: rowOffset)
                    do throws(E) {
                        try body(&sink)
                    } catch {
                        failure = error
                    }
                }
            }
        }
        if let failure { throw failure }
    }
}

/// Writes gathered weights into a ``GatheredCells`` grid and marks the occupied chunks.
struct GridSink: CellSink {
    static var takesWholeCells: Bool { false }
    let cells: UnsafeMutablePointer<Float>
    let rowChunks: UnsafeMutablePointer<UInt64>
    let rowCounts: UnsafeMutablePointer<Int32>
    let stride: Int
    let chunkShift: Int
    /// Added to a world column to give a grid column.
    let columnOffset: Int
    /// Added to a world row to give a grid row.
    let rowOffset: Int

    @inline(__always)
    mutating func add(column: Int, row: Int, weight: Double) {
        let x = column + columnOffset
        let y = row + rowOffset
        cells[y * stride + x] += Float(weight)
        rowChunks[y] |= 1 << UInt64(truncatingIfNeeded: x >> chunkShift)
        rowCounts[y] &+= 1
    }
}
