import NIOCore
import NIOHTTPTypes
import Synchronization

/// Every connection the server holds, by the address it came from, so that no client can keep
/// everyone else out: one address holds at most `perClient` of them, and a server that is full
/// makes room by closing the slowest. Connections past `--max-connections` wait in the kernel's
/// queue; without this, 300 clients each sending half a body filled a 128-connection server and
/// it answered nobody until their body deadline (a minute).
///
/// Which connection is the slowest: of those sending a request (its head or body begun and not
/// all come) for at least `grace`, the one whose bytes have come at the lowest rate since its
/// request began (a slowloris client's few bytes a second, where a browser sends a request in
/// one go). A full server with none such waits `grace` for one, then takes the one idle the
/// longest (a browser keeps a connection for later, and opens another when it finds it closed).
/// An address past its share closes its own slowest sender, else the new connection is refused:
/// its idle ones may be a writer's between two saves. A connection whose request has all come
/// (being answered: a save, an import's work) is never closed.
final class OpenConnections: Sendable {
    /// One connection, as its handler tells of it. Read and written only under `state`'s lock.
    final class Record: @unchecked Sendable {
        let channel: any Channel
        let address: NetworkAddress?
        let exempt: Bool
        /// When its request began (its first byte came), if one is coming and not all come.
        var sendingSince: NIODeadline?
        var bytesSent = 0
        /// Requests whose head has come and whose answer has not ended.
        var unanswered = 0
        var idleSince = NIODeadline.now()

        init(channel: any Channel, address: NetworkAddress?, exempt: Bool) {
            self.channel = channel
            self.address = address
            self.exempt = exempt
        }

        /// How slow it is to evict, lowest first; `nil`: not to be closed now.
        func slowness(at now: NIODeadline, grace: TimeAmount) -> (sending: Bool, rate: Double)? {
            if let since = sendingSince {
                let elapsed = now - since
                guard elapsed >= grace else { return nil }
                return (true, Double(bytesSent) / (Double(elapsed.nanoseconds) / 1e9))
            }
            guard unanswered == 0 else { return nil }
            // Idle: the longer, the "slower".
            return (false, -Double((now - idleSince).nanoseconds))
        }
    }

    let capacity: Int
    let perClient: Int
    let trusted: TrustedProxies
    /// How long a request may be sending before it can be taken for a slow one.
    static let grace = TimeAmount.seconds(1)
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
        let record = Record(channel: channel, address: address, exempt: address.map(trusted.trusts) ?? true)
        var closing: [any Channel] = []
        state.withLock { records in
            records[ObjectIdentifier(record)] = record
            let now = NIODeadline.now()
            if !record.exempt, let address {
                let theirs = records.values.filter { $0.address == address }
                if theirs.count > perClient {
                    // (Out of the count at once: it closes a moment later, and the next one must
                    // not pick it again.)
                    // Its slowest sending; else the new one is refused (its idle ones may be a
                    // writer's, between two saves).
                    let slowest = Self.slowest(among: theirs, besides: record, at: now)
                    let going = slowest?.sendingSince != nil ? slowest! : record
                    records[ObjectIdentifier(going)] = nil
                    closing.append(going.channel)
                }
            }
        }
        for channel in closing { channel.close(promise: nil) }
        if closing.isEmpty { makeRoom(on: channel.eventLoop, besides: record, idleToo: false) }
        return record
    }

    /// Full (once `new` is in, the next client would wait in the kernel's queue): closes the
    /// slowest connection sending a request. When none may go yet (every request too young to
    /// judge), looks again once one may, and then closes the longest idle if none is sending: a
    /// full server is never left full of slow clients for their whole deadline, and a writer's
    /// idle connection is not taken while a slow client's could be.
    private func makeRoom(on eventLoop: any EventLoop, besides new: Record?, idleToo: Bool) {
        let (full, slowest) = state.withLock { records -> (Bool, Record?) in
            guard records.count >= capacity else { return (false, nil) }
            var going = Self.slowest(among: Array(records.values), besides: new, at: .now())
            if let found = going, !idleToo, found.sendingSince == nil { going = nil }
            if let going { records[ObjectIdentifier(going)] = nil }
            return (true, going)
        }
        guard full else { return }
        if let slowest {
            slowest.channel.close(promise: nil)
        } else {
            eventLoop.scheduleTask(in: Self.grace) { [self] in makeRoom(on: eventLoop, besides: nil, idleToo: true) }
        }
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
        for record in records where record !== new {
            guard let (sending, rate) = record.slowness(at: now, grace: grace) else { continue }
            // Any connection sending slowly goes before an idle one.
            if let best = found, (best.sending && !sending) || (best.sending == sending && best.rate <= rate) { continue }
            found = (record, sending, rate)
        }
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
        connections.update(record) { record in
            if record.sendingSince == nil { record.sendingSince = .now() }
            record.bytesSent += count
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data), let record {
            // The request has all come: it is being answered, not sent.
            connections.update(record) { record in
                record.sendingSince = nil
                record.bytesSent = 0
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
