import Foundation
import Glibc
import Testing

@testable import PrewarmLoader

/// A real TLS server: nginx on a free loopback port with a self-signed certificate made here.
@Suite("HTTPLoader over HTTPS", .enabled(if: NginxTLSServer.isAvailable))
struct HTTPSTests {
    @Test("a self-signed certificate fails as tls unless allowInvalidSSL is set")
    func selfSignedCertificate() async throws {
        let body = LoaderFixture.sampleBytes(count: 50_000, seed: 42)
        let server = try NginxTLSServer(files: ["img.jpg": body])
        defer { server.stop() }
        let loader = try HTTPLoader()
        var request = LoadRequest(url: "https://127.0.0.1:\(server.port)/img.jpg")
        request.timeout = 2
        request.connectTimeout = 2

        let refused = try #require(await loader.load(request).error)
        #expect(refused.kind == .tls)
        #expect(refused.failureReason == .tls)

        request.allowInvalidSSL = true
        let accepted = try #require(await loader.load(request).response)
        #expect(accepted.status == 200)
        #expect(accepted.body == body)
    }
}

/// nginx (Debian's nginx-light) serving a folder over TLS, in the foreground, as a child process.
final class NginxTLSServer {
    static let nginx = "/usr/sbin/nginx"
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: nginx)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
    }

    let port: Int
    private let directory: URL
    private let process = Process()

    init(files: [String: [UInt8]]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "prewarm-nginx-\(UUID().uuidString)")
        let www = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: www.appendingPathComponent(name)) }

        let dir = directory.path
        try NginxTLSServer.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-keyout", "\(dir)/key.pem", "-out", "\(dir)/cert.pem", "-days", "1", "-subj",
                "/CN=127.0.0.1",
            ])
        port = try NginxTLSServer.freeLoopbackPort()
        let temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
            .map { "\($0)_temp_path \(dir)/\($0);" }.joined(separator: " ")
        let config = """
            daemon off; master_process off; pid \(dir)/nginx.pid; error_log \(dir)/error.log;
            events { worker_connections 64; }
            http {
                access_log off; \(temp)
                server {
                    listen 127.0.0.1:\(port) ssl;
                    ssl_certificate \(dir)/cert.pem; ssl_certificate_key \(dir)/key.pem;
                    root \(dir)/www;
                }
            }
            """
        try config.write(toFile: "\(dir)/nginx.conf", atomically: true, encoding: .utf8)

        process.executableURL = URL(fileURLWithPath: NginxTLSServer.nginx)
        process.arguments = ["-p", dir, "-c", "\(dir)/nginx.conf", "-e", "\(dir)/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard NginxTLSServer.waitUntilListening(port: port, timeout: 20) else {
            stop()
            throw ServerError(message: "nginx did not start listening on \(port)")
        }
    }

    func stop() {
        if process.isRunning {
            // SIGKILL, not SIGTERM: the child inherits the test runner's blocked-signal mask, in which
            // SIGTERM is blocked, and nginx in the foreground never unblocks it.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    struct ServerError: Error { var message: String }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: tool)
        child.arguments = arguments
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { throw ServerError(message: "\(tool) failed") }
    }

    /// Asks the kernel for a free port by binding port 0, then lets it go for nginx.
    private static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw ServerError(message: "no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func waitUntilListening(port: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = loopback(port: port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(fd)
            if connected { return true }
            usleep(10_000)  // nginx gives no readiness signal; a connect that works is the event
        }
        return false
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
