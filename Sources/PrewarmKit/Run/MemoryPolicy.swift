import Glibc

/// Process-wide allocator settings for a worker that decodes large images.
public enum MemoryPolicy {
    /// Decoded images are tens of megabytes each and short-lived. glibc raises its mmap threshold
    /// after the first such buffer is freed, so later ones come from the heap and fragment it, and
    /// peak RSS grows past the decode budget. A fixed 1 MiB threshold keeps every large buffer an
    /// mmap that goes back to the kernel when freed.
    ///
    /// `mallopt` lives in <malloc.h>, which the Glibc module does not export: it is looked up by
    /// name. On a libc without it this does nothing.
    public static func keepLargeBuffersMapped() {
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        _ = mallopt(mmapThreshold, 1 << 20)
    }
}
