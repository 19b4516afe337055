import Foundation

/// Why a report file could not be read. The description names the file and what is wrong, e.g.
/// `shard-1.json: not a prewarm report (schema is "foo/v2")`.
public struct ReportLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Error, Sendable, Hashable {
        /// The file could not be read (the system's message).
        case unreadable(String)
        /// The bytes are not JSON (the parser's message).
        case notJSON(String)
        /// The JSON has another schema, or none (`nil`).
        case notAReport(schema: String?)
        /// The schema matches but the content does not (which key, what is wrong).
        case invalid(String)
    }

    /// The file, as given.
    public var path: String
    /// What went wrong.
    public var problem: Problem

    /// Creates an error.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// `FILE: message`.
    public var description: String {
        switch problem {
        case .unreadable(let message): return "\(path): cannot read: \(message)"
        case .notJSON(let message): return "\(path): not JSON: \(message)"
        case .notAReport(let schema?):
            return
                "\(path): not a prewarm report (schema is \"\(schema)\", expected \"\(RunReport.schemaName)\")"
        case .notAReport(nil):
            return "\(path): not a prewarm report (no \"schema\": \"\(RunReport.schemaName)\")"
        case .invalid(let message): return "\(path): invalid report: \(message)"
        }
    }
}

extension RunReport {
    /// Reads a report written by `ReportWriter`. Throws `ReportLoadError` naming the file.
    public static func load(path: String) throws(ReportLoadError) -> RunReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let message = (error as NSError).localizedDescription
            throw ReportLoadError(path: path, problem: .unreadable(message))
        }
        return try decode(data, path: path)
    }

    /// Parses report JSON; `path` only names the source in errors.
    public static func decode(_ data: Data, path: String) throws(ReportLoadError) -> RunReport {
        // Parse generically first, so "not JSON" and "not a report" are told apart from a report
        // with a bad field.
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ReportLoadError(path: path, problem: .notJSON(Self.parserMessage(error)))
        }
        guard let dictionary = object as? [String: Any] else {
            throw ReportLoadError(path: path, problem: .notAReport(schema: nil))
        }
        guard let schema = dictionary["schema"] as? String, schema == schemaName else {
            throw ReportLoadError(
                path: path, problem: .notAReport(schema: dictionary["schema"].map { "\($0)" }))
        }
        do {
            return try JSONDecoder().decode(RunReport.self, from: data)
        } catch let problem as ReportLoadError.Problem {
            throw ReportLoadError(path: path, problem: problem)
        } catch let error as DecodingError {
            throw ReportLoadError(path: path, problem: .invalid(Self.describe(error)))
        } catch {
            throw ReportLoadError(path: path, problem: .invalid("\(error)"))
        }
    }

    private static func parserMessage(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
        return nsError.localizedDescription
    }

    /// "missing key 'totals' at jobs_detail[0]" rather than Swift's DecodingError dump.
    static func describe(_ error: DecodingError) -> String {
        func location(_ path: [any CodingKey]) -> String {
            guard !path.isEmpty else { return "" }
            let text = path.map { key in
                key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
            }.joined()
            return " at " + (text.hasPrefix(".") ? String(text.dropFirst()) : text)
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)'\(location(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "expected \(type)\(location(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "null where \(type) was expected\(location(context.codingPath))"
        case .dataCorrupted(let context):
            return context.debugDescription + location(context.codingPath)
        @unknown default:
            return "\(error)"
        }
    }
}
