/// PostgreSQL's binary `COPY` format for rows of (lat float8, lng float8, weight float4,
/// x int8, y int8, key int8), then the imported time (`timestamptz`) and categories (`text`).
enum CopyEncoder {
    /// The signature, flags and header extension that open the data.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// The field count −1 that closes it.
    static let trailer: [UInt8] = [0xFF, 0xFF]

    /// Appends one row's positions, opening a row of `6 + extraFields` fields (the extra ones
    /// follow: ``append(time:to:)``, ``append(text:to:)``).
    static func append(
        latitude: Double, longitude: Double, weight: Float, x: UInt64, y: UInt64, key: UInt64, extraFields: Int = 0,
        to bytes: inout [UInt8]
    ) {
        bytes.append(contentsOf: [0, UInt8(truncatingIfNeeded: 6 + extraFields)])
        append(field: latitude.bitPattern, width: 8, to: &bytes)
        append(field: longitude.bitPattern, width: 8, to: &bytes)
        append(field: UInt64(weight.bitPattern), width: 4, to: &bytes)
        append(field: x, width: 8, to: &bytes)
        append(field: y, width: 8, to: &bytes)
        append(field: key, width: 8, to: &bytes)
    }

    /// A `timestamptz` field: microseconds since 2000-01-01 UTC of Unix second `seconds`
    /// (years 0000...9999, which the readers allow, lie well within its range).
    static func append(time seconds: Int64, to bytes: inout [UInt8]) {
        let microseconds = (seconds - 946_684_800) * 1_000_000
        append(field: UInt64(bitPattern: microseconds), width: 8, to: &bytes)
    }

    /// A `text` field: its UTF-8 bytes.
    static func append(text: String, to bytes: inout [UInt8]) {
        let count = UInt32(truncatingIfNeeded: text.utf8.count)
        bytes.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) })
        bytes.append(contentsOf: text.utf8)
    }

    /// A field: its length as a big-endian int32, then `width` big-endian bytes of `bits`.
    private static func append(field bits: UInt64, width: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: [0, 0, 0, UInt8(truncatingIfNeeded: width)])
        for i in stride(from: width - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * i)))
        }
    }
}
