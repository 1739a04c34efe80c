import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Cuts off a client that is slow to send a request: one whose headers have not all come within
/// `headLimit` of connecting (or of the end of its last answer), or whose body has not all come
/// within `bodyLimit` of its headers (or of its last megabyte, for a large upload). It is answered `408 Request Timeout` and disconnected (just
/// disconnected if its answer had begun). A connection on which nothing at all has come meanwhile
/// (a browser keeping it for later) is closed without a word, as HTTP/1.1 expects of an idle
/// one: a 408 there could be read as the answer to a request the client sent as it was being
/// written.
///
/// A slowloris client trickles its headers, or its body, a byte at a time, and no idle timer
/// fires while bytes keep coming: each such client would hold a connection (and a file
/// descriptor, and a request's task) for as long as it liked. Every real client sends its
/// headers in one go and a body of a few megabytes within seconds, so limits of a minute or
/// less cost nobody anything. It sits after HTTP decoding, where a request head is one event,
/// and puts a `BytesArrived` in front of the decoder to learn whether a request has begun.
final class RequestDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let headLimit: TimeAmount
    private let bodyLimit: TimeAmount
    /// One timer per connection, moved on rather than set for each request: scheduling and
    /// cancelling a timer per request was a measurable share of an autosave's event-loop time.
    private var check: Scheduled<Void>?
    private var checkAt = NIODeadline.distantFuture
    /// When the clock last started: the connection opened, or its last answer ended.
    private var idleSince = NIODeadline.now()
    /// Requests whose head has come and whose answer has not yet ended (more than one when a
    /// client pipelines): the head's clock runs only while there are none.
    private var unanswered = 0
    /// When the head of a request whose body is still coming arrived, or its last megabyte.
    private var bodySince: NIODeadline?
    /// The body's bytes since `bodySince`.
    private var bodyBytes = 0
    static let bodyProgress = 1 << 20
    /// Whether an answer has begun and not ended: then a 408 cannot be sent in its middle.
    private var answering = false
    /// Whether any byte has come since the clock started: a request has begun.
    fileprivate var bytesArrived = false

    init(headLimit: TimeAmount, bodyLimit: TimeAmount) {
        self.headLimit = headLimit
        self.bodyLimit = bodyLimit
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
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            let since = NIODeadline.now()
            bodySince = since
            // Only when the body's limit is shorter than the time the timer has left (never
            // with the defaults) does the timer move; most requests end in the same read.
            if since + bodyLimit < checkAt { schedule(at: since + bodyLimit, context: context) }
            bodyBytes = 0
        case .end:
            bodySince = nil
        case .body(let part):
            // A large upload (an import of years of photos) takes longer than the limit: each
            // megabyte that comes starts the body's clock again. A trickle never does.
            bodyBytes += part.readableBytes
            if bodyBytes >= Self.bodyProgress {
                bodyBytes = 0
                bodySince = .now()
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            // (A 1xx head would count too, and then a late body is only closed on, not
            // answered 408: not worth binding the head to look at on every answer.)
            answering = true
        case .end:
            // The answer is complete: the clock runs again for the next request on this connection.
            answering = false
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 {
                idleSince = .now()
                bytesArrived = false
            }
        default:
            break
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
        idleSince = .now()
        bytesArrived = false
        schedule(at: idleSince + headLimit, context: context)
    }

    private func schedule(at time: NIODeadline, context: ChannelHandlerContext) {
        stop()
        checkAt = time
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: time) { [self] in
            self.checkDeadline(context: context)
        }
    }

    /// Refuses the connection if a clock has run out, else looks again when one would.
    private func checkDeadline(context: ChannelHandlerContext) {
        check = nil
        checkAt = .distantFuture
        let now = NIODeadline.now()
        if let bodySince {
            guard bodySince + bodyLimit <= now else { return schedule(at: bodySince + bodyLimit, context: context) }
            if answering || unanswered == 0 {
                // Answered already (and the rest of the body is being read and dropped).
                context.close(promise: nil)
            } else {
                Self.refuse(context: context, message: "The request's body did not arrive within \(bodyLimit.seconds) seconds. Send the request again.")
            }
            return
        }
        guard unanswered == 0 else { return schedule(at: now + headLimit, context: context) }
        guard idleSince + headLimit <= now else { return schedule(at: idleSince + headLimit, context: context) }
        if bytesArrived {
            Self.refuse(context: context, message: "The request's headers did not arrive within \(headLimit.seconds) seconds. Send the request again.")
        } else {
            context.close(promise: nil)
        }
    }

    private func stop() {
        check?.cancel()
        check = nil
        checkAt = .distantFuture
    }

    /// The same `{error, message}` body as every other API error, then the connection closes.
    private static func refuse(context: ChannelHandlerContext, message: String) {
        let body = ByteBuffer(string: #"{"error":"\#(APIErrorCode.requestTimeout.rawValue)","message":"\#(message)"}"#)
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

extension TimeAmount {
    fileprivate var seconds: Int64 { nanoseconds / 1_000_000_000 }
}

/// Tells a `RequestDeadlines` that bytes have come, before the HTTP decoder has made a
/// request of them. On the connection's event loop, as its deadline is.
private final class BytesArrived: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: RequestDeadlines

    init(deadline: RequestDeadlines) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadline.bytesArrived = true
        context.fireChannelRead(data)
    }
}
