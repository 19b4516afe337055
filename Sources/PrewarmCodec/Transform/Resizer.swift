/// High-quality resizing of RGBA pixels: crop, box pre-shrink, then a separable Lanczos-3 pass,
/// all on premultiplied alpha.
///
/// Why this shape (it is libvips' thumbnail pipeline):
/// - Premultiplied alpha: transparent pixels carry no colour weight, so a transparent neighbour
///   cannot bleed its (arbitrary) RGB into the edge of an opaque shape.
/// - Box pre-shrink: for ratios above 3× an integer block average first cuts the work the
///   Lanczos pass does (its kernel grows with the ratio); the filter then does the last 1.5–4×.
/// - Streaming: rows go through box → horizontal filter into a small ring of rows, and the
///   vertical filter reads that ring. Memory is a few rows, not a second full-size image.
public enum Resizer {
    /// Resizes the `crop` of `source` (the whole image when nil) to exactly `size`.
    public static func resize(_ source: PixelBuffer, crop: PixelRect? = nil, to size: PixelSize)
        -> PixelBuffer
    {
        let region = crop ?? PixelRect(source.size)
        precondition(
            region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
                && region.x + region.width <= source.width
                && region.y + region.height <= source.height,
            "crop \(region) outside \(source.size)")
        precondition(size.width > 0 && size.height > 0, "empty output size")
        if region.size == size {
            return region == PixelRect(source.size) ? source : cropped(source, region)
        }
        let plan = ResizePlan(region: region, output: size, hasAlpha: source.hasAlpha)
        var output = [UInt8](repeating: 0, count: size.width * size.height * 4)
        source.pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                plan.run(input: input.baseAddress!, inputRowBytes: source.width * 4, output: out.baseAddress!)
            }
        }
        return PixelBuffer(size: size, pixels: output, hasAlpha: source.hasAlpha)
    }

    /// Copies a rectangle out of a buffer (used when only a crop is needed).
    static func cropped(_ source: PixelBuffer, _ rect: PixelRect) -> PixelBuffer {
        var pixels = [UInt8]()
        pixels.reserveCapacity(rect.width * rect.height * 4)
        for row in rect.y..<(rect.y + rect.height) {
            let start = (row * source.width + rect.x) * 4
            pixels.append(contentsOf: source.pixels[start..<(start + rect.width * 4)])
        }
        return PixelBuffer(size: rect.size, pixels: pixels, hasAlpha: source.hasAlpha)
    }

    /// The integer block size of the pre-shrink for one axis: none up to 3×, above that the
    /// largest factor that still leaves the Lanczos pass about 2× (libvips leaves a "gap" of 2).
    static func boxFactor(input: Int, output: Int) -> Int {
        let ratio = Double(input) / Double(output)
        guard ratio > 3 else { return 1 }
        return max(2, Int(ratio / 2))
    }
}

/// One resize: the weight tables and the scratch rows, allocated once.
private struct ResizePlan {
    let region: PixelRect
    let output: PixelSize
    let hasAlpha: Bool
    let boxX: Int
    let boxY: Int
    let shrunkWidth: Int
    let shrunkHeight: Int
    let xWeights: ResampleWeights
    let yWeights: ResampleWeights

    init(region: PixelRect, output: PixelSize, hasAlpha: Bool) {
        self.region = region
        self.output = output
        self.hasAlpha = hasAlpha
        boxX = Resizer.boxFactor(input: region.width, output: output.width)
        boxY = Resizer.boxFactor(input: region.height, output: output.height)
        shrunkWidth = (region.width + boxX - 1) / boxX
        shrunkHeight = (region.height + boxY - 1) / boxY
        xWeights = ResampleWeights(
            inputCount: shrunkWidth, span: Double(region.width) / Double(boxX), outputCount: output.width)
        yWeights = ResampleWeights(
            inputCount: shrunkHeight, span: Double(region.height) / Double(boxY), outputCount: output.height)
    }

    func run(input: UnsafePointer<UInt8>, inputRowBytes: Int, output out: UnsafeMutablePointer<UInt8>) {
        let outWidth = output.width
        let ringCount = yWeights.maxCount
        let shrunkRow = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: shrunkWidth)
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: ringCount * outWidth)
        let accumulator = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: outWidth)
        defer {
            shrunkRow.deallocate()
            ring.deallocate()
            accumulator.deallocate()
        }
        var nextRow = 0
        yWeights.weights.withUnsafeBufferPointer { yw in
            xWeights.weights.withUnsafeBufferPointer { xw in
                for outRow in 0..<output.height {
                    let start = yWeights.starts[outRow]
                    let count = yWeights.counts[outRow]
                    // Produce the rows this output row needs that are not in the ring yet.
                    while nextRow < start + count {
                        shrinkRow(nextRow, input: input, inputRowBytes: inputRowBytes, into: shrunkRow)
                        filterRow(shrunkRow, into: ring + (nextRow % ringCount) * outWidth, weights: xw.baseAddress!)
                        nextRow += 1
                    }
                    // Vertical pass: row by row over the ring, so every access is contiguous.
                    accumulator.update(repeating: .zero, count: outWidth)
                    let rowWeights = yw.baseAddress! + outRow * yWeights.stride
                    for tap in 0..<count {
                        let weight = rowWeights[tap]
                        let row = ring + ((start + tap) % ringCount) * outWidth
                        for x in 0..<outWidth {
                            accumulator[x] += weight * row[x]
                        }
                    }
                    storeRow(accumulator, to: out + outRow * outWidth * 4)
                }
            }
        }
    }

    /// Box-averages block row `row` of the crop into premultiplied floats (0...255 scale).
    private func shrinkRow(
        _ row: Int, input: UnsafePointer<UInt8>, inputRowBytes: Int, into target: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let firstLine = region.y + row * boxY
        let lines = min(boxY, region.y + region.height - firstLine)
        let rawInput = UnsafeRawPointer(input)
        for column in 0..<shrunkWidth {
            let firstX = region.x + column * boxX
            let columns = min(boxX, region.x + region.width - firstX)
            var sum = SIMD4<Float>.zero
            for line in 0..<lines {
                var offset = (firstLine + line) * inputRowBytes + firstX * 4
                for _ in 0..<columns {
                    sum += Self.premultiplied(rawInput.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self), hasAlpha)
                    offset += 4
                }
            }
            target[column] = lines * columns == 1 ? sum : sum / Float(lines * columns)
        }
    }

    /// Horizontal Lanczos pass over one premultiplied row.
    private func filterRow(
        _ row: UnsafeMutablePointer<SIMD4<Float>>, into target: UnsafeMutablePointer<SIMD4<Float>>,
        weights: UnsafePointer<Float>
    ) {
        let stride = xWeights.stride
        xWeights.starts.withUnsafeBufferPointer { starts in
            xWeights.counts.withUnsafeBufferPointer { counts in
                for x in 0..<output.width {
                    let source = row + starts[x]
                    let taps = weights + x * stride
                    var sum = SIMD4<Float>.zero
                    for tap in 0..<counts[x] {
                        sum += taps[tap] * source[tap]
                    }
                    target[x] = sum
                }
            }
        }
    }

    /// Unpremultiplies, rounds and clamps one output row to RGBA bytes.
    private func storeRow(_ row: UnsafeMutablePointer<SIMD4<Float>>, to target: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(target)
        let low = SIMD4<Float>.zero
        let high = SIMD4<Float>(repeating: 255)
        for x in 0..<output.width {
            var value = row[x]
            if hasAlpha {
                let alpha = min(max(value.w, 0), 255)
                // Below half a level the pixel rounds to fully transparent; its colour is moot.
                let scale: Float = alpha >= 0.5 ? 255 / alpha : 0
                value = SIMD4(value.x * scale, value.y * scale, value.z * scale, alpha)
            } else {
                value.w = 255
            }
            let clamped = value.clamped(lowerBound: low, upperBound: high) + 0.5
            let bytes = SIMD4<UInt8>(truncatingIfNeeded: SIMD4<Int32>(clamped, rounding: .towardZero))
            raw.storeBytes(of: bytes, toByteOffset: x * 4, as: SIMD4<UInt8>.self)
        }
    }

    /// Straight RGBA bytes → premultiplied floats: colour × alpha/255, alpha kept at 0...255.
    @inline(__always)
    private static func premultiplied(_ pixel: SIMD4<UInt8>, _ hasAlpha: Bool) -> SIMD4<Float> {
        let value = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel))
        guard hasAlpha else { return value }
        let factor = value.w * (1 / 255)
        return SIMD4(value.x * factor, value.y * factor, value.z * factor, value.w)
    }
}
