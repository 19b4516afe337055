// Thin wrappers over Glibc sockets: only what a loopback HTTP/1.1 server needs.
import Glibc

/// Errors from setting up the listening socket.
public struct TestOriginError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ call: String) {
        description = "TestOrigin: \(call) failed: \(String(cString: strerror(errno)))"
    }
}

enum Socket {
    /// Creates a socket listening on 127.0.0.1:`port` (0 picks a free port) and returns it with the bound port.
    static func listenOnLoopback(port: Int) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestOriginError("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = TestOriginError("bind to 127.0.0.1:\(port)")
            close(fd)
            throw error
        }
        guard listen(fd, 512) == 0 else {
            let error = TestOriginError("listen")
            close(fd)
            throw error
        }
        var boundAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: boundAddress.sin_port)))
    }

    /// Accepts one connection; nil once the listener has been shut down.
    static func accept(on listener: Int32) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                // Responses are written as head + body; without NODELAY, Nagle plus delayed ACKs stall keep-alive clients.
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return fd
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                usleep(10_000)  // Out of descriptors: back off briefly rather than give up serving.
                continue
            default: return nil
            }
        }
    }

    /// Sends all bytes; false if the peer went away. MSG_NOSIGNAL keeps EPIPE from killing the test process.
    static func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let sent = bytes.withUnsafeBytes { buffer in
                send(
                    fd, buffer.baseAddress! + (offset - bytes.startIndex), bytes.endIndex - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        sendAll(fd, bytes[...])
    }

    /// Reads up to `capacity` bytes; an empty result means end of stream or error.
    static func receive(_ fd: Int32, capacity: Int = 16 * 1024) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, capacity, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return [] }
            return Array(buffer[0..<count])
        }
    }

    /// Blocks until the peer closes (or the socket is shut down), discarding anything it sends.
    static func waitForPeerClose(_ fd: Int32) {
        while !receive(fd).isEmpty {}
    }

    /// Makes the next close() send RST instead of FIN.
    static func setAbortiveClose(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }
}
