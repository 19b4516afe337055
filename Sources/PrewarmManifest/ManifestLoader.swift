#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads and validates manifests (SPEC "Manifest"). Every problem in every file is collected and
/// thrown together, each as `FILE:LINE:COLUMN: message`.
public enum ManifestLoader {
    /// Manifests larger than this are refused before parsing.
    static let maximumFileSize = 64 << 20

    /// Loads every PATH (a manifest file, or a folder whose *.yaml/*.yml files are loaded sorted by
    /// name). Two manifests declaring the same `job` are an error.
    public static func load(paths: [String], environment: [String: String]) throws(ManifestErrors) -> [Manifest] {
        var issues: [ManifestIssue] = []
        var manifests: [Manifest] = []
        var jobs: [String: String] = [:]  // job → the file that declared it first
        for file in manifestFiles(paths, issues: &issues) {
            let (manifest, jobNode, fileIssues) = loadFile(file, environment: environment)
            issues += fileIssues
            guard let manifest else { continue }
            if let first = jobs[manifest.job] {
                issues.append(ManifestIssue(
                    file: file, line: jobNode?.line ?? 1, column: jobNode?.column ?? 1,
                    message: "job '\(manifest.job)' is also the job of \(first); give each manifest its own 'job' name"))
                continue
            }
            jobs[manifest.job] = file
            manifests.append(manifest)
        }
        guard issues.isEmpty else { throw ManifestErrors(issues: issues) }
        return manifests
    }

    /// Loads one manifest file (or a folder holding exactly one manifest).
    public static func load(path: String, environment: [String: String]) throws(ManifestErrors) -> Manifest {
        let manifests = try load(paths: [path], environment: environment)
        guard manifests.count == 1 else {
            throw ManifestErrors(issues: [ManifestIssue(
                file: path, line: 1, column: 1,
                message: "expected one manifest, found \(manifests.count); name a single file")])
        }
        return manifests[0]
    }

    /// The manifest files PATHS name, folders expanded.
    private static func manifestFiles(_ paths: [String], issues: inout [ManifestIssue]) -> [String] {
        var files: [String] = []
        for path in paths {
            guard isDirectory(path) else {
                files.append(path)
                continue
            }
            let found = yamlFiles(inFolder: path)
            if found.isEmpty {
                issues.append(ManifestIssue(file: path, line: 1, column: 1, message: "the folder holds no *.yaml or *.yml manifests"))
            }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            files += found.map { prefix + $0 }
        }
        return files
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Names of the *.yaml / *.yml files directly in `folder`, sorted by name (byte order).
    private static func yamlFiles(inFolder folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard !name.hasPrefix("."), name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { continue }
            guard !isDirectory(folder + "/" + name) else { continue }
            names.append(name)
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Parses and decodes one file; the manifest is nil when it had issues.
    private static func loadFile(
        _ file: String, environment: [String: String]
    ) -> (Manifest?, YAMLNode?, [ManifestIssue]) {
        let text: [UInt8]
        switch readFile(file) {
        case .success(let bytes): text = bytes
        case .failure(let error):
            return (nil, nil, [ManifestIssue(file: file, line: 1, column: 1, message: error.message)])
        }
        let (root, problems) = YAMLParser.parse(text)
        var decoder = ManifestDecoder(file: file, environment: environment)
        for problem in problems { decoder.report(line: problem.line, column: problem.column, problem.message) }
        let syntaxFailed = root == nil && !problems.isEmpty
        let (manifest, jobNode) = syntaxFailed ? (nil, nil) : decoder.decodeDocument(root)
        let issues = ordered(decoder.issues, manifestFile: file)
        return (issues.isEmpty ? manifest : nil, jobNode, issues)
    }

    /// Document order: the manifest's own issues by line and column, then those in its url_files.
    private static func ordered(_ issues: [ManifestIssue], manifestFile: String) -> [ManifestIssue] {
        issues.enumerated().sorted { left, right in
            let l = (left.element.file == manifestFile ? 0 : 1, left.element.line, left.element.column, left.offset)
            let r = (right.element.file == manifestFile ? 0 : 1, right.element.line, right.element.column, right.offset)
            return l < r
        }.map(\.element)
    }

    private struct ReadError: Error { var message: String }

    private static func readFile(_ path: String) -> Result<[UInt8], ReadError> {
        guard let file = fopen(path, "rb") else {
            return .failure(ReadError(message: "cannot read manifest: \(String(cString: strerror(errno)))"))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<count]
            if bytes.count > maximumFileSize {
                return .failure(ReadError(message: "the manifest is larger than \(maximumFileSize >> 20) MiB; move URLs to a url_file"))
            }
            if count < chunk.count {
                if ferror(file) != 0 {
                    return .failure(ReadError(message: "cannot read manifest: \(String(cString: strerror(errno)))"))
                }
                return .success(bytes)
            }
        }
    }
}
