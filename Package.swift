// swift-tools-version:6.0
// prewarm — a batch prefetcher and cache-warming worker for images.
// No SwiftPM package dependencies by design: only the toolchain and Debian's C libraries,
// wrapped as system-library targets (see Sources/C*/module.modulemap).
import PackageDescription

let package = Package(
    name: "prewarm",
    products: [
        .executable(name: "prewarm", targets: ["prewarm"]),
        .library(name: "PrewarmKit", targets: ["PrewarmKit"]),
    ],
    targets: [
        // C libraries from Debian -dev packages (see .ci/packages).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP"),
        .systemLibrary(name: "CGIF", path: "Sources/CGIF"),
        .systemLibrary(name: "CYAML", path: "Sources/CYAML"),

        // The parts of prewarm, one module each, so their boundaries are enforced by the compiler.
        .target(name: "PrewarmCore"),
        .target(name: "PrewarmManifest", dependencies: ["PrewarmCore", "CYAML"]),
        .target(name: "PrewarmLoader", dependencies: ["PrewarmCore", "CCurl"]),
        .target(name: "PrewarmCodec", dependencies: ["PrewarmCore", "CJPEG", "CPNG", "CWebP", "CGIF"]),
        .target(name: "PrewarmCache", dependencies: ["PrewarmCore"]),
        .target(name: "PrewarmReport", dependencies: ["PrewarmCore"]),
        .target(
            name: "PrewarmKit",
            dependencies: [
                "PrewarmCore", "PrewarmManifest", "PrewarmLoader", "PrewarmCodec", "PrewarmCache",
                "PrewarmReport",
            ]),
        .executableTarget(name: "prewarm", dependencies: ["PrewarmKit"]),

        // A fault-injecting HTTP origin on 127.0.0.1: used by the tests and by the demo.
        .target(name: "TestOrigin", path: "Tests/Support/TestOrigin"),
        .executableTarget(
            name: "prewarm-demo-origin", dependencies: ["TestOrigin"], path: "examples/demo-origin"),

        .testTarget(name: "PrewarmCoreTests", dependencies: ["PrewarmCore"]),
        .testTarget(name: "PrewarmManifestTests", dependencies: ["PrewarmManifest"]),
        .testTarget(name: "PrewarmLoaderTests", dependencies: ["PrewarmLoader", "TestOrigin"]),
        .testTarget(name: "PrewarmCodecTests", dependencies: ["PrewarmCodec"]),
        .testTarget(name: "PrewarmCacheTests", dependencies: ["PrewarmCache"]),
        .testTarget(name: "PrewarmReportTests", dependencies: ["PrewarmReport"]),
        .testTarget(name: "PrewarmKitTests", dependencies: ["PrewarmKit", "TestOrigin"]),
    ],
    swiftLanguageModes: [.v6]
)
