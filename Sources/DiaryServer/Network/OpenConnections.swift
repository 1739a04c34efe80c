import NIOCore
import NIOHTTPTypes
import Synchronization

/// Every connection the server holds, by the address it came from, so that no client can keep
/// everyone else out: one address holds at most `perClient` of them, and a server that is full
/// makes room by closing the slowest. Connections past `--max-connections` wait in the kernel's
/// queue; without this, 300 clients each sending half a body filled a 128-connection server and
/// it answered nobody until their body deadline (a minute).
///
/// Which connection goes when one must: first one sending its request (its head or body begun,
/// for at least `grace`) at less than `floorRate` over the last few seconds (a slowloris client's
/// few bytes a second; a phone uploading a photo at 20 KB/s is far above it), the slowest first;
/// then one with no request under way, idle for at least `grace` (a browser's kept connection,
/// or one that never sent a byte: HTTP lets a server close those, and a browser opens another),
/// the longest idle first, but only when no request too young to judge may yet prove slow. A
/// request sending faster than the floor, or all come and being answered (a save, an import at
/// work), is never cut. A full server with none that may go looks
/// again a moment later; an address past its share with none that may go has its new connection
/// refused. An address is an IPv4 address, or an IPv6 /64 (what one home is given).
final class OpenConnections: Sendable {
    /// One connection, as its handler tells of it. Read and written only under `state`'s lock.
    final class Record: @unchecked Sendable {
        let channel: any Channel
        let address: NetworkAddress?
        let exempt: Bool
        /// When its request began (its first byte came), if one is coming and not all come.
        var sendingSince: NIODeadline?
        /// The bytes of that request since `windowStart`, and its rate over the window before.
        var windowStart = NIODeadline.now()
        var windowBytes = 0
        var lastRate: Double?
        /// Requests whose head has come and whose answer has not ended.
        var unanswered = 0
        var idleSince = NIODeadline.now()

        init(channel: any Channel, address: NetworkAddress?, exempt: Bool) {
            self.channel = channel
            self.address = address
            self.exempt = exempt
        }

        /// Bytes of a request came.
        func sent(_ count: Int, at now: NIODeadline) {
            if sendingSince == nil {
                sendingSince = now
                windowStart = now
                windowBytes = 0
                lastRate = nil
            }
            windowBytes += count
            if now - windowStart >= OpenConnections.window {
                lastRate = Self.rate(windowBytes, since: windowStart, at: now)
                windowStart = now
                windowBytes = 0
            }
        }

        /// The request has all come, or none is under way.
        func requestEnded() {
            sendingSince = nil
            windowBytes = 0
            lastRate = nil
        }

        /// Its place in the line to be closed, first first; `nil`: not to be closed now.
        func slowness(at now: NIODeadline) -> (sending: Bool, rate: Double)? {
            if let since = sendingSince {
                guard now - since >= OpenConnections.grace else { return nil }
                // Over the window under way once it is long enough to say, else the one before.
                let current = Self.rate(windowBytes, since: windowStart, at: now)
                let rate = now - windowStart >= OpenConnections.grace || lastRate == nil ? current : max(current, lastRate!)
                return rate < OpenConnections.floorRate ? (true, rate) : nil
            }
            guard unanswered == 0, now - idleSince >= OpenConnections.grace else { return nil }
            // Idle: the longer, the sooner.
            return (false, -Double((now - idleSince).nanoseconds))
        }

        static func rate(_ bytes: Int, since start: NIODeadline, at now: NIODeadline) -> Double {
            Double(bytes) / max(Double((now - start).nanoseconds) / 1e9, 0.001)
        }
    }

    let capacity: Int
    let perClient: Int
    let trusted: TrustedProxies
    /// How long a request may be sending, or a connection idle, before it may be closed.
    static let grace = TimeAmount.seconds(1)
    /// Bytes a second below which a request still coming is a slow one (a slowloris client
    /// sends a few; the slowest phone upload, tens of thousands).
    static let floorRate = 1_024.0
    /// How long a request's rate is measured over.
    static let window = TimeAmount.seconds(3)
    private let state = Mutex<[ObjectIdentifier: Record]>([:])

    init(capacity: Int, perClient: Int, trusted: TrustedProxies) {
        self.capacity = capacity
        self.perClient = perClient
        self.trusted = trusted
    }

    /// Keeps `channel`'s record, closing the slowest of its address's connections, and the
    /// slowest of all, when it leaves no room; or closes `channel` itself when nothing else may go.
    func opened(_ channel: any Channel) -> Record {
        let address = channel.remoteAddress.flatMap(NetworkAddress.init)
        let record = Record(channel: channel, address: address.map(Self.share), exempt: address.map(trusted.trusts) ?? true)
        var closing: [any Channel] = []
        state.withLock { records in
            records[ObjectIdentifier(record)] = record
            let now = NIODeadline.now()
            if !record.exempt, let share = record.address {
                let theirs = records.values.filter { $0.address == share }
                if theirs.count > perClient {
                    // (Out of the count at once: it closes a moment later, and the next one must
                    // not pick it again.)
                    let going = Self.slowest(among: theirs, besides: record, at: now) ?? record
                    records[ObjectIdentifier(going)] = nil
                    closing.append(going.channel)
                }
            }
        }
        for channel in closing { channel.close(promise: nil) }
        if closing.isEmpty { makeRoom(on: channel.eventLoop, besides: record) }
        return record
    }

    /// Full (once `new` is in, the next client would wait in the kernel's queue): closes the
    /// first connection in line to go. When none may go yet, looks again a moment later: a full
    /// server is never left full of slow clients for their whole deadline.
    private func makeRoom(on eventLoop: any EventLoop, besides new: Record?) {
        let (full, slowest) = state.withLock { records -> (Bool, Record?) in
            guard records.count >= capacity else { return (false, nil) }
            let going = Self.slowest(among: Array(records.values), besides: new, at: .now())
            if let going { records[ObjectIdentifier(going)] = nil }
            return (true, going)
        }
        guard full else { return }
        if let slowest {
            slowest.channel.close(promise: nil)
        } else {
            eventLoop.scheduleTask(in: .milliseconds(250)) { [self] in makeRoom(on: eventLoop, besides: nil) }
        }
    }

    /// What an address's share is counted by: an IPv4 address, or an IPv6 /64, which one home
    /// or phone is given whole.
    static func share(_ address: NetworkAddress) -> NetworkAddress {
        guard address.bytes.count == 16 else { return address }
        return NetworkAddress(bytes: Array(address.bytes.prefix(8)) + Array(repeating: 0, count: 8))
    }

    func closed(_ record: Record) {
        state.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(record)) }
    }

    /// Notes what happened on a connection (on its event loop, under the lock).
    func update(_ record: Record, _ change: (Record) -> Void) {
        state.withLock { _ in change(record) }
    }

    var count: Int { state.withLock { $0.count } }

    private static func slowest(among records: [Record], besides new: Record?, at now: NIODeadline) -> Record? {
        var found: (record: Record, sending: Bool, rate: Double)?
        var judgedSoon = false
        for record in records where record !== new {
            guard let (sending, rate) = record.slowness(at: now) else {
                if let since = record.sendingSince, now - since < grace { judgedSoon = true }
                continue
            }
            // Any connection sending slowly goes before an idle one.
            if let best = found, (best.sending && !sending) || (best.sending == sending && best.rate <= rate) { continue }
            found = (record, sending, rate)
        }
        // An idle connection (a writer's, between two saves) is not closed while requests too
        // young to judge may yet prove slow: they are waited for (a moment) instead.
        if let found, !found.sending, judgedSoon { return nil }
        return found?.record
    }
}

/// Tells `OpenConnections` of one connection: opened, a request's bytes coming, answered, closed.
/// It sits after HTTP decoding (as `RequestDeadlines` does), with a counter of raw bytes in front.
final class ConnectionShare: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: OpenConnections
    private var record: OpenConnections.Record?

    init(_ connections: OpenConnections) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        try? context.pipeline.syncOperations.addHandler(RawBytes(share: self), position: .first)
        if context.channel.isActive { record = connections.opened(context.channel) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if record == nil { record = connections.opened(context.channel) }
        context.fireChannelActive()
    }

    /// Bytes came, before the decoder made anything of them.
    fileprivate func arrived(_ count: Int) {
        guard let record else { return }
        connections.update(record) { $0.sent(count, at: .now()) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data), let record {
            // The request has all come: it is being answered, not sent.
            connections.update(record) { record in
                record.requestEnded()
                record.unanswered += 1
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), let record {
            connections.update(record) { record in
                record.unanswered = max(0, record.unanswered - 1)
                if record.unanswered == 0 { record.idleSince = .now() }
            }
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let record { connections.closed(record) }
        record = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let record { connections.closed(record) }
        record = nil
    }
}

/// Counts a connection's raw bytes for its `ConnectionShare`, on the connection's event loop.
private final class RawBytes: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let share: ConnectionShare

    init(share: ConnectionShare) {
        self.share = share
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        share.arrived(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
    }
}
