extension Duration {
    /// The duration in seconds, as the `Double` that metrics (`Histogram.observe`) and `Thread.sleep` take. Reads
    /// `components` once: each read divides a 128-bit count.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
