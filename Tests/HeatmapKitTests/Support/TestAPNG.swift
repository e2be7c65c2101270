import Foundation
import HeatmapCore
import HeatmapTestSupport

@testable import HeatmapKit

/// Reading APNG files back in the tests: their chunks (CRCs checked), each frame as a plain PNG
/// (its `fdAT` data made an `IDAT`) for ``PNGDecoder``, and synthetic frames with labels.
enum TestAPNG {
    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    enum Failure: Error, CustomStringConvertible {
        case malformed(String)
        var description: String {
            switch self {
            case .malformed(let text): text
            }
        }
    }

    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 { bytes.reduce(0) { $0 << 8 | UInt32($1) } }

    /// The chunks after the signature, each CRC checked.
    static func chunks(_ bytes: [UInt8]) throws -> [Chunk] {
        guard bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure.malformed("no PNG signature")
        }
        var chunks: [Chunk] = []
        var at = 8
        while at + 12 <= bytes.count {
            let count = Int(bigEndian(bytes[at..<(at + 4)]))
            guard at + 12 + count <= bytes.count else { throw Failure.malformed("chunk at \(at) runs past the end") }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let crc = bigEndian(bytes[(at + 8 + count)..<(at + 12 + count)])
            guard crc == CRC32.checksum(Array(bytes[(at + 4)..<(at + 8 + count)])) else {
                throw Failure.malformed("\(type) at \(at) has a bad CRC")
            }
            chunks.append(Chunk(type: type, data: Array(bytes[(at + 8)..<(at + 8 + count)])))
            at += 12 + count
        }
        guard at == bytes.count else { throw Failure.malformed("\(bytes.count - at) bytes after the last chunk") }
        return chunks
    }

    /// A chunk's bytes, CRC included.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return TestPNG.bigEndian(UInt32(data.count)) + body + TestPNG.bigEndian(CRC32.checksum(body))
    }

    /// Every frame as a PNG of its own: the head chunks (`IHDR`, `PLTE`, `tRNS`), then the
    /// frame's data in one `IDAT` (sequence numbers dropped), then `IEND`.
    static func framePNGs(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let all = try chunks(bytes)
        let head = all.filter { ["IHDR", "PLTE", "tRNS"].contains($0.type) }
        var frames: [[UInt8]] = []
        var data: [UInt8]? = nil
        func close() {
            guard let data else { return }
            var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            for chunk in head { png += Self.chunk(chunk.type, chunk.data) }
            frames.append(png + Self.chunk("IDAT", data) + Self.chunk("IEND", []))
        }
        for chunk in all {
            switch chunk.type {
            case "fcTL":
                close()
                data = []
            case "IDAT": data? += chunk.data
            case "fdAT": data? += chunk.data.dropFirst(4)
            default: break
            }
        }
        close()
        return frames
    }

    /// `count` frames of `width × height`: a blob moving right over transparency in 8 colours
    /// (one palette fits them all, with the label's two) or, `manyColors`, an opaque gradient of
    /// hundreds; each labelled with its window of a daily plan from 2024-03-01.
    static func frames(count: Int, width: Int, height: Int, manyColors: Bool = false) -> [RGBAImage] {
        let ramp: [[UInt8]] = [
            [0, 0, 0, 0], [102, 225, 0, 60], [102, 225, 0, 120], [140, 230, 0, 180], [190, 235, 0, 220],
            [255, 200, 0, 240], [255, 120, 0, 255], [255, 0, 0, 255],
        ]
        let start = 1_709_251_200
        return (0..<count).map { k in
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let cx = (8 + 3 * k) % width
            let cy = height / 3
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    if manyColors {
                        pixels.replaceSubrange(
                            i..<(i + 4), with: [UInt8(x * 4 & 255), UInt8(y * 5 & 255), UInt8(k * 10 & 255), 255])
                    } else {
                        let d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy)
                        pixels.replaceSubrange(i..<(i + 4), with: ramp[max(0, 7 - d2 / 12)])
                    }
                }
            }
            var image = RGBAImage(transparentWidth: width, height: height)
            image.pixels = pixels
            let window = FramePlan.Window(start: start + k * 86400, end: start + (k + 7) * 86400)
            image.drawLabel(window.label)
            return image
        }
    }

    /// Python with Pillow: `HEATMAP_PILLOW_PYTHON` if set (CI makes the venv), else a venv in the
    /// temporary folder, made once with pip; `nil` when pip cannot reach its index.
    static let pillowPython: URL? = {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["HEATMAP_PILLOW_PYTHON"] { return URL(fileURLWithPath: given) }
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-pillow-venv")
        let python = venv.appendingPathComponent("bin/python")
        if pillowWorks(python) { return python }
        guard let system = TestProgram.program("python3") else { return nil }
        _ = try? TestProgram.run(system, ["-m", "venv", venv.path])
        let pip = venv.appendingPathComponent("bin/pip")
        _ = try? TestProgram.run(pip, ["install", "--quiet", "--timeout", "20", "--retries", "1", "pillow"])
        return pillowWorks(python) ? python : nil
    }()

    static func pillowWorks(_ python: URL) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        return (try? TestProgram.run(python, ["-c", "import PIL.PngImagePlugin"]).status) == 0
    }

    /// What Pillow reads of the APNG at `path`: its header line (`PNG frames animated loop
    /// default_image`), then each frame's delay as Pillow says it (`500.0`) and its RGBA pixels.
    static func pillowFrames(_ path: String, python: URL) throws -> (
        header: String?, frames: [(duration: String, pixels: [UInt8]?)], run: TestProgram.Run
    ) {
        let script = """
            import base64, sys
            from PIL import Image
            with Image.open(sys.argv[1]) as im:
                print(im.format, im.n_frames, im.is_animated, im.info.get("loop"), im.default_image)
                for i in range(im.n_frames):
                    im.seek(i)
                    print(im.info.get("duration"), base64.b64encode(im.convert("RGBA").tobytes()).decode())
            """
        let run = try TestProgram.run(python, ["-c", script, path])
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let frames = lines.dropFirst().map { line in
            let parts = line.split(separator: " ")
            let pixels = parts.count == 2 ? Data(base64Encoded: String(parts[1])).map { [UInt8]($0) } : nil
            return (duration: parts.first.map(String.init) ?? "", pixels: pixels)
        }
        return (lines.first, frames, run)
    }
}
