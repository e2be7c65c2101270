import CPNG
import HeatmapKit

/// libpng's simplified API as a reference for size: its own filters, zlib's default level 6.
enum LibPNG {
    /// The bytes of libpng's PNG of `image`: RGBA, or with `palette` a colour-mapped image (its
    /// colours in order of appearance, at most 256; 0 when there are more).
    static func size(_ image: RGBAImage, palette: Bool) -> Int {
        var png = png_image()
        png.version = cpng_image_version
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        var pixels = image.pixels
        var colormap: [UInt8] = []
        if palette {
            var index: [UInt32: UInt8] = [:]
            var indices = [UInt8](repeating: 0, count: image.width * image.height)
            for p in 0..<indices.count {
                let color = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(image.pixels[4 * p + $1]) }
                if let i = index[color] {
                    indices[p] = i
                } else {
                    guard index.count < 256 else { return 0 }
                    index[color] = UInt8(index.count)
                    indices[p] = UInt8(index.count - 1)
                    colormap += image.pixels[(4 * p)..<(4 * p + 4)]
                }
            }
            pixels = indices
            png.format = cpng_format_rgba_colormap
            png.colormap_entries = UInt32(index.count)
        } else {
            png.format = cpng_format_rgba
        }
        var capacity = image.width * image.height * 5 + 65_536
        var out = [UInt8](repeating: 0, count: capacity)
        let written = out.withUnsafeMutableBytes { memory in
            pixels.withUnsafeBytes { buffer in
                colormap.withUnsafeBytes { map in
                    png_image_write_to_memory(
                        &png, memory.baseAddress, &capacity, 0, buffer.baseAddress, 0,
                        palette ? map.baseAddress : nil)
                }
            }
        }
        png_image_free(&png)
        return written != 0 ? capacity : 0
    }
}
