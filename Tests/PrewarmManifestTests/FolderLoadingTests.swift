import PrewarmManifest
import Testing

@Suite struct FolderLoadingTests {
    static let body = "version: 1\ngroups: [{ name: g, urls: ['https://x.test/a.jpg'] }]\n"

    @Test func folderLoadsYamlFilesSortedByName() throws {
        let folder = try TempFolder()
        try folder.write("jobs/b.yml", Self.body)
        try folder.write("jobs/a.yaml", Self.body)
        try folder.write("jobs/c.yaml", "job: custom\n" + Self.body)
        try folder.write("jobs/notes.txt", "not a manifest")
        try folder.write("jobs/nested/d.yaml", Self.body)
        let extra = try folder.write("extra.yaml", Self.body)
        let manifests = try ManifestLoader.load(paths: [folder.path + "/jobs", extra], environment: [:])
        #expect(manifests.map(\.job) == ["a", "b", "custom", "extra"])
        #expect(manifests.map(\.file) == [
            folder.path + "/jobs/a.yaml", folder.path + "/jobs/b.yml", folder.path + "/jobs/c.yaml", extra,
        ])
    }

    @Test func duplicateJobNamesAcrossManifestsAreAnIssue() throws {
        let folder = try TempFolder()
        let first = try folder.write("one.yaml", "job: shared\n" + Self.body)
        let second = try folder.write("two.yaml", "version: 1\njob: shared\ngroups: [{ name: g, urls: ['https://x.test/a.jpg'] }]\n")
        #expect {
            try ManifestLoader.load(paths: [folder.path], environment: [:])
        } throws: { error in
            (error as? ManifestErrors)?.description
                == "\(second):2:6: job 'shared' is also the job of \(first); give each manifest its own 'job' name"
        }
    }

    @Test func emptyFolderIsAnIssue() throws {
        let folder = try TempFolder()
        #expect {
            try ManifestLoader.load(paths: [folder.path], environment: [:])
        } throws: { error in
            (error as? ManifestErrors)?.issues.first?.message == "the folder holds no *.yaml or *.yml manifests"
        }
    }
}
