import Dispatch
import Testing
@testable import Rendering

@Suite struct CopyBuffersTests {
    /// Asks for `width`×`height` until the worker has made it (at most 10 s).
    func takeWhenMade(_ buffers: CopyBuffers, width: Int, height: Int) -> Bool {
        let pause = DispatchSemaphore(value: 0)
        for _ in 0..<1000 {
            if buffers.take(width: width, height: height) != nil { return true }
            _ = pause.wait(timeout: .now() + .milliseconds(10))
        }
        return false
    }

    /// A window resized while the grid's copy was being made for its old size: the buffer of the old
    /// size, made after the new one was asked for, is not kept (the soak's last sample held one of a
    /// larger size, 6 MB, until the window's next resize).
    @Test func aBufferOfASizeGoneIsNotKept() {
        let buffers = CopyBuffers(inBackground: true)
        // 64 MB take the worker far longer to write than the second ask takes to come.
        #expect(buffers.take(width: 4096, height: 4096) == nil)
        #expect(buffers.take(width: 120, height: 100) == nil)
        #expect(takeWhenMade(buffers, width: 120, height: 100), "the new size is made")
        #expect(buffers.readyBytes == 0, "nothing is held for the old size")
    }

    /// A size asked for again gets its buffer once made, and a buffer made is handed over, not kept.
    @Test func theSizeAskedForIsMadeOnceAndHandedOver() {
        let buffers = CopyBuffers(inBackground: true)
        #expect(takeWhenMade(buffers, width: 240, height: 200))
        #expect(buffers.readyBytes == 0)
        #expect(buffers.take(width: 240, height: 200) == nil, "taken: the next is asked for anew")
    }
}
