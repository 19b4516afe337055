import CGIF
import PrewarmCore

/// Decodes GIF with giflib, reading from memory through a callback: the first frame, or every
/// frame composited onto the logical screen with transparency and disposal, as browsers show it.
enum GIFDecoder {
    static func decode(_ bytes: [UInt8], info: ImageInfo, allFrames: Bool) throws(CodecError) -> DecodedImage {
        let loopCount = (try? GIFHeader.summarize(bytes).loopCount) ?? 1
        return try bytes.withUnsafeBufferPointer { (input) throws(CodecError) -> DecodedImage in
            // giflib keeps the pointer to its source for the file's lifetime: it must not be a
            // temporary.
            let memory = UnsafeMutablePointer<prewarm_gif_memory>.allocate(capacity: 1)
            memory.initialize(to: prewarm_gif_memory(data: input.baseAddress, size: input.count, offset: 0))
            defer { memory.deallocate() }
            var error: Int32 = 0
            guard let gif = prewarm_gif_open_memory(memory, &error) else { throw failure(error) }
            defer { DGifCloseFile(gif, &error) }
            var compositor = GIFCompositor(size: info.storedSize)
            let frames = try readFrames(gif, into: &compositor, allFrames: allFrames)
            return DecodedImage(frames: frames, loopCount: loopCount, sourceSize: info.storedSize)
        }
    }

    private static func readFrames(
        _ gif: UnsafeMutablePointer<GifFileType>, into compositor: inout GIFCompositor, allFrames: Bool
    ) throws(CodecError) -> [Frame] {
        var frames: [Frame] = []
        var control = GraphicsControlBlock(
            DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
            TransparentColor: NO_TRANSPARENT_COLOR)
        var record = UNDEFINED_RECORD_TYPE
        repeat {
            guard DGifGetRecordType(gif, &record) == GIF_OK else { throw failure(gif.pointee.Error) }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw failure(gif.pointee.Error) }
                let buffer = try compositor.draw(gif, control: control)
                // GIF delays are in centiseconds.
                frames.append(Frame(buffer: buffer, durationMilliseconds: Int(control.DelayTime) * 10))
                if !allFrames { return frames }
                control = GraphicsControlBlock(
                    DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                    TransparentColor: NO_TRANSPARENT_COLOR)
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failure(gif.pointee.Error) }
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                    DGifExtensionToGCB(Int(block[0]), block + 1, &control)
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failure(gif.pointee.Error) }
                }
            default:
                break
            }
        } while record != TERMINATE_RECORD_TYPE
        guard !frames.isEmpty else { throw .decode("GIF has no image") }
        return frames
    }

    static func failure(_ code: Int32) -> CodecError {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return .decode(text)
    }
}

/// The logical screen that GIF frames are drawn onto, with each frame's disposal applied before
/// the next one is drawn.
struct GIFCompositor {
    let size: PixelSize
    private var canvas: [UInt8]
    private var pendingDisposal: (mode: Int32, left: Int, top: Int, right: Int, bottom: Int)?
    private var savedCanvas: [UInt8]?

    init(size: PixelSize) {
        self.size = size
        // Browsers start from transparent, not from the background colour.
        canvas = [UInt8](repeating: 0, count: size.width * size.height * 4)
    }

    /// Reads the current image's pixels from `gif` and returns the composited canvas.
    mutating func draw(_ gif: UnsafeMutablePointer<GifFileType>, control: GraphicsControlBlock) throws(CodecError)
        -> PixelBuffer
    {
        applyPendingDisposal()
        let descriptor = gif.pointee.Image
        guard let map = descriptor.ColorMap ?? gif.pointee.SColorMap, let colours = map.pointee.Colors else {
            throw .decode("GIF frame has no colour map")
        }
        let colourCount = Int(map.pointee.ColorCount)
        let left = Int(descriptor.Left)
        let top = Int(descriptor.Top)
        let width = Int(descriptor.Width)
        let height = Int(descriptor.Height)
        let right = min(left + width, size.width)
        let bottom = min(top + height, size.height)
        if control.DisposalMode == DISPOSE_PREVIOUS { savedCanvas = canvas }
        pendingDisposal = (control.DisposalMode, left, top, right, bottom)
        let transparent = Int(control.TransparentColor)
        var line = [GifByteType](repeating: 0, count: max(width, 1))
        for y in GIFCompositor.rowOrder(height: height, interlaced: descriptor.Interlace) {
            guard DGifGetLine(gif, &line, Int32(width)) == GIF_OK else { throw GIFDecoder.failure(gif.pointee.Error) }
            let canvasY = top + y
            guard canvasY < size.height, left < size.width else { continue }
            for x in left..<right {
                let index = Int(line[x - left])
                guard index != transparent, index < colourCount else { continue }
                let colour = colours[index]
                let offset = (canvasY * size.width + x) * 4
                canvas[offset] = colour.Red
                canvas[offset + 1] = colour.Green
                canvas[offset + 2] = colour.Blue
                canvas[offset + 3] = 255
            }
        }
        let hasAlpha = stride(from: 3, to: canvas.count, by: 4).contains { canvas[$0] != 255 }
        return PixelBuffer(size: size, pixels: canvas, hasAlpha: hasAlpha)
    }

    /// What the previous frame asked to happen to its area once shown.
    private mutating func applyPendingDisposal() {
        guard let disposal = pendingDisposal else { return }
        pendingDisposal = nil
        switch disposal.mode {
        case DISPOSE_BACKGROUND:
            guard disposal.left < disposal.right, disposal.top < disposal.bottom else { return }
            for y in disposal.top..<disposal.bottom {
                let start = (y * size.width + disposal.left) * 4
                let end = (y * size.width + disposal.right) * 4
                canvas.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
            }
        case DISPOSE_PREVIOUS:
            if let saved = savedCanvas { canvas = saved }
            savedCanvas = nil
        default:
            break  // unspecified / do not dispose: keep what was drawn
        }
    }

    /// Rows in the order they are stored: top to bottom, or the four interlace passes.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
            Array(stride(from: start, to: height, by: step))
        }
    }
}
