import Foundation

/// Precomputed Lanczos-3 weights for one axis: for every output pixel, the first input index and
/// a fixed-stride run of normalised weights.
///
/// Lanczos-3 because it is libvips' default for thumbnails: our variants then look like what
/// people already get from vipsthumbnail (sharp, with ringing that the final clamp hides), and the
/// tests can compare against it. Mitchell would be softer, Catmull-Rom a little less sharp.
struct ResampleWeights {
    /// Index of the first input pixel for each output pixel.
    let starts: [Int]
    /// Number of taps used by each output pixel (≤ `stride`).
    let counts: [Int]
    /// `stride` weights per output pixel; each run sums to 1 so flat colours stay exact.
    let weights: [Float]
    let stride: Int

    /// Weights that map `inputCount` samples, which together span `span` units of the output's
    /// coordinate system scaled to input pixels, onto `outputCount` samples.
    ///
    /// `span` differs from `inputCount` only after a box pre-shrink with a partial last block.
    /// Samples outside the input repeat the edge pixel (their weight is folded onto it), which is
    /// what keeps edges from darkening.
    init(inputCount: Int, span: Double, outputCount: Int) {
        let scale = span / Double(outputCount)
        // Downscaling stretches the kernel over `scale` input pixels; upscaling keeps it at 1.
        let filterScale = max(scale, 1)
        let support = 3 * filterScale
        let stride = Int((2 * support).rounded(.up)) + 2
        var starts = [Int](repeating: 0, count: outputCount)
        var counts = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * stride)
        var scratch = [Double](repeating: 0, count: stride)

        for out in 0..<outputCount {
            let centre = (Double(out) + 0.5) * scale
            let low = Int((centre - support - 0.5).rounded(.up))
            let high = Int((centre + support - 0.5).rounded(.down))
            let first = min(max(low, 0), inputCount - 1)
            let last = min(max(high, 0), inputCount - 1)
            let count = last - first + 1
            for index in 0..<count { scratch[index] = 0 }
            var total = 0.0
            if low <= high {
                for sample in low...high {
                    let weight = Self.lanczos3((Double(sample) + 0.5 - centre) / filterScale)
                    let clamped = min(max(sample, 0), inputCount - 1)
                    scratch[clamped - first] += weight
                    total += weight
                }
            }
            starts[out] = first
            counts[out] = count
            if total == 0 {
                // Cannot happen for a sane kernel; fall back to the nearest pixel.
                weights[out * stride] = 1
                counts[out] = 1
                continue
            }
            for index in 0..<count {
                weights[out * stride + index] = Float(scratch[index] / total)
            }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.stride = stride
    }

    /// The largest number of consecutive input samples any output pixel reads.
    var maxCount: Int { counts.max() ?? 1 }

    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if x <= -3 || x >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}
