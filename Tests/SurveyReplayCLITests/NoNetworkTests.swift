import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The harness simulates a survey's submit; it never sends anything anywhere. A survey whose submit URL is
/// a socket listening on this machine is replayed, walked and covered, and the socket sees no connection.
@Suite("No network")
struct NoNetworkTests {
    /// A TCP socket listening on 127.0.0.1 at a free port, which never accepts on its own.
    final class ListeningSocket {
        let descriptor: Int32
        let port: UInt16

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(descriptor >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0)
            try #require(listen(descriptor, 16) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            self.descriptor = descriptor
            self.port = UInt16(bigEndian: address.sin_port)
        }

        /// How many connections reached the socket so far (each completed handshake waits to be accepted).
        func connectionsReceived() -> Int {
            var count = 0
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 { return count }
                close(connection)
                count += 1
            }
        }

        deinit { close(descriptor) }
    }

    @Test("the listening socket does see a connection made to it (the check can fail)")
    func socketSeesConnections() throws {
        let listener = try ListeningSocket()
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = listener.port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        usleep(50_000)
        #expect(listener.connectionsReceived() == 1)
    }

    @Test("replaying, walking, covering and generating a survey that submits to a local socket sends it nothing")
    func nothingIsSent() throws {
        let listener = try ListeningSocket()
        let folder = try TemporaryFolder()
        let url = "http://127.0.0.1:\(listener.port)/responses"
        let survey = try folder.write("survey.json", CLIFixtures.survey.replacingOccurrences(of: "https://example.org/r", with: url))
        let scenario = try folder.write(
            "submit.scenario", "survey survey.json\nanswer smoker \"Yes\"\nnext\nanswer per_day \"3\"\nnext\nanswer done \"Yes\"\nnext\nsubmit\n")
        let runs = [
            try runBinary(["replay", scenario]),
            try runBinary(["fuzz", survey, "--walks", "200", "--seed", "7"]),
            try runBinary(["coverage", scenario, "--walks", "50"]),
            try runBinary(["generate", survey, "-o", folder.path + "/generated"]),
        ]
        for run in runs { #expect(run.status == 0, "\(run.out)\(run.error)") }
        #expect(runs[0].out.contains("submit"), "the scenario did reach Submit: \(runs[0].out)")
        usleep(50_000)
        #expect(listener.connectionsReceived() == 0)
    }
}
