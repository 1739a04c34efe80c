import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `408 Request Timeout` and closes the connection when a client has not sent a whole
/// request head within `limit` of connecting, or of the end of its last answer.
///
/// A slowloris client trickles its headers a byte at a time, and no idle timer fires while
/// bytes keep coming: each such client would hold a connection (and a file descriptor) for as
/// long as it liked. Every real client sends its headers in one go, so a limit of seconds
/// costs nobody anything. It sits after HTTP decoding, where a request head is one event.
final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Requests whose head has come and whose answer has not yet ended (more than one when a
    /// client pipelines): the clock runs only while there are none.
    private var unanswered = 0

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            stop()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The answer is complete: the clock runs again for the next request on this connection.
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 { start(context: context) }
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
        let seconds = limit.nanoseconds / 1_000_000_000
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limit) {
            Self.refuse(context: context, seconds: seconds)
        }
    }

    private func stop() {
        deadline?.cancel()
        deadline = nil
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
