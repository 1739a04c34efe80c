import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `408 Request Timeout` and closes the connection when a client has not sent a whole
/// request head within `limit` of connecting, or of the end of its last answer. A connection on
/// which nothing at all has come meanwhile (a browser keeping it for later) is closed without a
/// word, as HTTP/1.1 expects of an idle one: a 408 there could be read as the answer to a request
/// the client sent as it was being written.
///
/// A slowloris client trickles its headers a byte at a time, and no idle timer fires while
/// bytes keep coming: each such client would hold a connection (and a file descriptor) for as
/// long as it liked. Every real client sends its headers in one go, so a limit of seconds
/// costs nobody anything. It sits after HTTP decoding, where a request head is one event, and
/// puts a `BytesArrived` in front of the decoder to learn whether a request has begun.
final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    /// One timer per connection, moved on rather than set for each request: scheduling and
    /// cancelling a timer per request was a measurable share of an autosave's event-loop time.
    private var check: Scheduled<Void>?
    /// When the clock last started: the connection opened, or its last answer ended.
    private var idleSince = NIODeadline.now()
    /// Requests whose head has come and whose answer has not yet ended (more than one when a
    /// client pipelines): the clock runs only while there are none.
    private var unanswered = 0
    /// Whether any byte has come since the clock started: a request has begun.
    fileprivate var bytesArrived = false

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        try? context.pipeline.syncOperations.addHandler(BytesArrived(deadline: self), position: .first)
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { unanswered += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The answer is complete: the clock runs again for the next request on this connection.
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 {
                idleSince = .now()
                bytesArrived = false
            }
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    private func start(context: ChannelHandlerContext) {
        stop()
        idleSince = .now()
        bytesArrived = false
        schedule(at: idleSince + limit, context: context)
    }

    private func schedule(at time: NIODeadline, context: ChannelHandlerContext) {
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: time) { [self] in
            self.checkDeadline(context: context)
        }
    }

    /// Refuses the connection if its clock has run out, else looks again when it would.
    private func checkDeadline(context: ChannelHandlerContext) {
        let deadline = unanswered > 0 ? NIODeadline.now() + limit : idleSince + limit
        if unanswered == 0 && deadline <= .now() {
            check = nil
            if bytesArrived {
                Self.refuse(context: context, seconds: limit.nanoseconds / 1_000_000_000)
            } else {
                context.close(promise: nil)
            }
        } else {
            schedule(at: deadline, context: context)
        }
    }

    private func stop() {
        check?.cancel()
        check = nil
    }

    /// The same `{error, message}` body as every other API error, then the connection closes.
    private static func refuse(context: ChannelHandlerContext, seconds: Int64) {
        let message = "The request's headers did not arrive within \(seconds) seconds. Send the request again."
        let body = ByteBuffer(string: #"{"error":"request_timeout","message":"\#(message)"}"#)
        let head = HTTPResponse(status: .requestTimeout, headerFields: [
            .contentType: "application/json; charset=utf-8",
            .contentLength: String(body.readableBytes),
            .connection: "close",
        ])
        context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(body)), promise: nil)
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

/// Tells a `RequestHeadDeadline` that bytes have come, before the HTTP decoder has made a
/// request of them. On the connection's event loop, as its deadline is.
private final class BytesArrived: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: RequestHeadDeadline

    init(deadline: RequestHeadDeadline) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadline.bytesArrived = true
        context.fireChannelRead(data)
    }
}
