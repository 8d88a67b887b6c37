import Dispatch

extension Array {
    /// `transform` of every element, in order, computed on every core a chunk of `chunk` elements at a time
    /// (`DispatchQueue.concurrentPerform`): for the independent work of a bulk request's items. Each element is
    /// read, and each result written, by one thread only.
    func concurrentMap<T>(chunk: Int = 512, _ transform: @Sendable (Element) -> T) -> [T] {
        let count = self.count
        guard count > chunk else { return map(transform) }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        withUnsafeBufferPointer { source in
            let shared = SharedBuffers(source: source, results: results)
            DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { part in
                for index in part * chunk..<Swift.min(count, (part + 1) * chunk) {
                    shared.results[index] = transform(shared.source[index])
                }
            }
        }
        return results.map { $0! }
    }
}

/// The buffers `concurrentMap` hands its threads: disjoint parts of them each.
private struct SharedBuffers<Element, T>: @unchecked Sendable {
    let source: UnsafeBufferPointer<Element>
    let results: UnsafeMutableBufferPointer<T?>
}
