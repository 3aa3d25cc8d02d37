import Foundation

/// A viewer's decoder processes, as the tests and the bench find them: its children running in their hidden mode.
public enum DecoderProcesses {
    public static func of(_ viewer: Int32) -> Set<Int32> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(viewer)/task")) ?? []
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(viewer)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
        }
        return Set(children.filter { child in
            ((try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? "").contains("--decoder-process")
        })
    }
}
