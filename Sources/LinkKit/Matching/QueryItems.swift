/// A URL's query items in one form: their names and values back to back in one buffer.
struct QueryItems {
    struct Span {
        let name: Range<Int>
        let value: Range<Int>
    }

    let bytes: [UInt8]
    let spans: [Span]

    var count: Int { spans.count }
    func name(_ index: Int) -> ArraySlice<UInt8> { bytes[spans[index].name] }
    func value(_ index: Int) -> ArraySlice<UInt8> { bytes[spans[index].value] }
}
