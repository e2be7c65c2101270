/// The calling thread's page faults and CPU time split into user and kernel
/// (`getrusage(RUSAGE_THREAD)`), to tell a render's own work from the kernel's work for it.
struct ThreadUsage {
    var minorFaults = 0
    var majorFaults = 0
    var userSeconds = 0.0
    var systemSeconds = 0.0

    /// The thread's counts so far (zero where the platform has no per-thread usage).
    static func now() -> ThreadUsage {
        guard let usage = threadResourceUsage() else { return ThreadUsage() }
        return ThreadUsage(
            minorFaults: usage.ru_minflt, majorFaults: usage.ru_majflt, userSeconds: seconds(usage.ru_utime),
            systemSeconds: seconds(usage.ru_stime))
    }

    static func - (a: ThreadUsage, b: ThreadUsage) -> ThreadUsage {
        ThreadUsage(
            minorFaults: a.minorFaults - b.minorFaults, majorFaults: a.majorFaults - b.majorFaults,
            userSeconds: a.userSeconds - b.userSeconds, systemSeconds: a.systemSeconds - b.systemSeconds)
    }

    private static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) * 1e-6 }
}
