/// Applies an EXIF orientation (1...8) so the pixels come out upright.
enum Orientation {
    static func apply(_ orientation: Int, to buffer: PixelBuffer) -> PixelBuffer {
        guard (2...8).contains(orientation) else { return buffer }
        let width = buffer.width
        let height = buffer.height
        let swaps = orientation >= 5
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        var output = [UInt8](repeating: 0, count: buffer.pixels.count)
        buffer.pixels.withUnsafeBytes { sourceBytes in
            output.withUnsafeMutableBytes { targetBytes in
                let source = sourceBytes.bindMemory(to: UInt32.self)
                let target = targetBytes.bindMemory(to: UInt32.self)
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // Where the upright pixel (x, y) sits in the stored image.
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case 2: (sx, sy) = (width - 1 - x, y)  // mirrored
                        case 3: (sx, sy) = (width - 1 - x, height - 1 - y)  // rotated 180°
                        case 4: (sx, sy) = (x, height - 1 - y)  // flipped
                        case 5: (sx, sy) = (y, x)  // transposed
                        case 6: (sx, sy) = (y, height - 1 - x)  // needs 90° clockwise
                        case 7: (sx, sy) = (width - 1 - y, height - 1 - x)  // transversed
                        default: (sx, sy) = (width - 1 - y, x)  // 8: needs 90° counter-clockwise
                        }
                        target[y * outWidth + x] = source[sy * width + sx]
                    }
                }
            }
        }
        return PixelBuffer(
            size: PixelSize(width: outWidth, height: outHeight), pixels: output, hasAlpha: buffer.hasAlpha)
    }
}
