import Foundation

/// Writes `--report` JSON: keys sorted, pretty-printed, slashes unescaped (URLs stay readable).
public enum ReportWriter {
    /// A failure to encode or write a report.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, naming the destination.
        public var description: String
    }

    /// The report as JSON bytes, ending in a newline.
    public static func encode(_ report: RunReport) throws(WriteError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(report)
            data.append(0x0A)
            return data
        } catch {
            throw WriteError(description: "cannot encode the report: \(error)")
        }
    }

    /// Writes the report to `destination`: `-` is stdout, anything else a file replaced
    /// atomically (temporary file in the same folder, then rename), so a dashboard reading it
    /// never sees half a report.
    public static func write(_ report: RunReport, to destination: String) throws(WriteError) {
        let data = try encode(report)
        if destination == "-" {
            let ok = data.withUnsafeBytes { FileDescriptorOutput.writeAll(fd: 1, $0) }
            if !ok {
                throw WriteError(description: "stdout: cannot write: \(AtomicFile.errnoMessage())")
            }
            return
        }
        do {
            try AtomicFile.write(data, to: destination)
        } catch {
            throw WriteError(description: error.description)
        }
    }
}
