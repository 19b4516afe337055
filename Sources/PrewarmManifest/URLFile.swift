#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `url_file` one line at a time with `getline` (never the whole file): one URL per line,
/// surrounding whitespace trimmed, blank lines and `#` comment lines skipped. A `#` after
/// whitespace starts a comment too (`https://x/a.jpg   # hero`), since a URL cannot contain a space.
enum URLFile {
    /// One URL line: its 1-based line number, the column where the URL starts, and its bytes
    /// (valid only during the callback).
    struct Entry {
        var line: Int
        var column: Int
        var bytes: UnsafeBufferPointer<UInt8>
    }

    /// Calls `body` for every URL line in order until it returns false. Returns the `errno` text
    /// when the file cannot be opened or read, else nil.
    @discardableResult
    static func forEachEntry(path: String, _ body: (Entry) throws -> Bool) rethrows -> String? {
        guard let file = fopen(path, "r") else { return String(cString: strerror(errno)) }
        defer { fclose(file) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        var lineNumber = 0
        while true {
            errno = 0
            let length = getline(&buffer, &capacity, file)
            if length < 0 {
                return ferror(file) != 0 ? String(cString: strerror(errno)) : nil
            }
            lineNumber += 1
            guard let buffer else { continue }
            let found = buffer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                urlRange(in: UnsafeBufferPointer(start: bytes, count: length), isFirstLine: lineNumber == 1)
            }
            guard let (start, end) = found else { continue }
            let keepGoing = try buffer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                try body(Entry(line: lineNumber, column: start + 1, bytes: UnsafeBufferPointer(start: bytes + start, count: end - start)))
            }
            if !keepGoing { return nil }
        }
    }

    /// The byte range of the URL in one raw line, or nil for blank and comment lines.
    static func urlRange(in line: UnsafeBufferPointer<UInt8>, isFirstLine: Bool) -> (Int, Int)? {
        var start = 0
        if isFirstLine, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { start = 3 }  // UTF-8 BOM
        var end = line.count
        while start < end, isSpace(line[start]) { start += 1 }
        guard start < end, line[start] != UInt8(ascii: "#") else { return nil }
        // A trailing comment after whitespace is cut off.
        var index = start
        while index < end {
            if isSpace(line[index]) {
                var next = index
                while next < end, isSpace(line[next]) { next += 1 }
                if next == end || line[next] == UInt8(ascii: "#") { end = index; break }
                index = next
            } else {
                index += 1
            }
        }
        while end > start, isSpace(line[end - 1]) { end -= 1 }
        return (start, end)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }
}

/// Reads a `url_file` one URL at a time, by the same rules as the loader's validation pass (it
/// shares `URLFile.urlRange`), for callers that pull: the scheduler takes one URL when a slot frees
/// up, so a list of millions never sits in memory.
public final class URLFileLineReader {
    private let file: UnsafeMutablePointer<FILE>?
    private var buffer: UnsafeMutablePointer<CChar>? = nil
    private var capacity = 0
    private var lineNumber = 0

    /// Opens `path`; a file that cannot be opened reads as empty (it was validated at load time).
    public init(path: String) { file = fopen(path, "r") }

    deinit {
        if let file { fclose(file) }
        free(buffer)
    }

    /// The next URL, or nil at the end of the file.
    public func next() -> String? {
        guard let file else { return nil }
        while true {
            let length = getline(&buffer, &capacity, file)
            guard length >= 0, let buffer else { return nil }
            lineNumber += 1
            let isFirstLine = lineNumber == 1
            let url = buffer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes -> String? in
                let line = UnsafeBufferPointer(start: bytes, count: length)
                guard let (start, end) = URLFile.urlRange(in: line, isFirstLine: isFirstLine) else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
            }
            if let url { return url }
        }
    }
}
