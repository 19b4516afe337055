import Foundation
import PrewarmManifest
import Testing

/// A temporary folder for one test's manifests, removed when the test ends.
final class TempFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-manifest-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` inside the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }
}

/// Loads `text` as `name` and expects it to fail; returns the issues.
func issues(
    _ text: String, name: String = "m.yaml", environment: [String: String] = [:], in folder: TempFolder
) throws -> [ManifestIssue] {
    let file = try folder.write(name, text)
    do {
        _ = try ManifestLoader.load(path: file, environment: environment)
        Issue.record("expected manifest errors")
        return []
    } catch {
        return error.issues
    }
}

/// Loads `text` as `name`, which must succeed.
func manifest(
    _ text: String, name: String = "m.yaml", environment: [String: String] = [:], in folder: TempFolder
) throws -> Manifest {
    let file = try folder.write(name, text)
    return try ManifestLoader.load(path: file, environment: environment)
}

/// Every URL of a source, in order.
func allURLs(_ source: URLSource) -> [String] {
    var urls: [String] = []
    source.forEachURL { urls.append($0); return true }
    return urls
}
