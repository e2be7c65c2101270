import CWebP
import HeatmapKit

/// Reads WebP files back into RGBA with libwebp, for tests and the benchmark's checks.
public enum WebPDecoding {
    /// The pixels of the WebP file `bytes`, not premultiplied; `nil` when libwebp cannot read it
    /// or it has more than `maximumPixelCount` pixels (default 2²⁶).
    public static func rgba(_ bytes: [UInt8], maximumPixelCount: Int = 1 << 26) -> RGBAImage? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard WebPGetInfo(bytes, bytes.count, &width, &height) != 0, width > 0, height > 0,
            Int(width) * Int(height) <= maximumPixelCount
        else { return nil }
        let count = Int(width) * Int(height) * 4
        var decoded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            decoded = WebPDecodeRGBAInto(bytes, bytes.count, buffer.baseAddress, count, width * 4) != nil
            initialized = decoded ? count : 0
        }
        guard decoded else { return nil }
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
    }
}
