import Foundation
import PackagePlugin

/// Runs `wayland-scanner` over each protocol's XML: a client header (into `include`, with the module
/// map that makes them one module) and the interface tables' C code.
@main
struct WaylandScanner: BuildToolPlugin {
    /// The protocols, as paths under `/usr/share/wayland-protocols` (the core protocol's header comes
    /// with libwayland-client itself).
    static let protocols = [
        "stable/xdg-shell/xdg-shell.xml",
        "stable/presentation-time/presentation-time.xml",
        "stable/viewporter/viewporter.xml",
        "staging/fractional-scale/fractional-scale-v1.xml",
        "unstable/xdg-decoration/xdg-decoration-unstable-v1.xml",
        "unstable/xdg-output/xdg-output-unstable-v1.xml",
        "unstable/pointer-gestures/pointer-gestures-unstable-v1.xml",
    ]
    static let root = URL(fileURLWithPath: "/usr/share/wayland-protocols")
    /// Protocols Debian does not install, written from their documentation (`Protocols/`): the wlroots
    /// virtual pointer and the virtual keyboard, which scripts in a Wayland window type and point with.
    static let written = ["wlr-virtual-pointer-unstable-v1.xml", "virtual-keyboard-unstable-v1.xml"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL
        let include = output.appending(path: "include")
        var script = ["set -e", "mkdir -p '\(include.path)'"]
        var headers: [String] = [], outputs: [URL] = []
        let xmls = Self.protocols.map { Self.root.appending(path: $0) }
            + Self.written.map { context.package.directoryURL.appending(path: "Protocols/\($0)") }
        for xml in xmls {
            let name = xml.deletingPathExtension().lastPathComponent
            let header = include.appending(path: "\(name)-client-protocol.h"), code = output.appending(path: "\(name)-protocol.c")
            script.append("wayland-scanner client-header '\(xml.path)' '\(header.path)'")
            script.append("wayland-scanner private-code '\(xml.path)' '\(code.path)'")
            headers.append(header.lastPathComponent)
            outputs += [header, code]
        }
        // One command makes them all: SwiftPM runs a command only for outputs something consumes, and
        // the headers alone are consumed by nothing but the module map.
        let moduleMap = include.appending(path: "module.modulemap")
        let lines = ["module CWaylandProtocols {", "    header \"wayland-client-support.h\""] + headers.map { "    header \"\($0)\"" }
            + ["    link \"wayland-client\"", "    link \"wayland-cursor\"", "    export *", "}"]
        script.append("printf '%s\\n' " + lines.map { "'\($0)'" }.joined(separator: " ") + " > '\(moduleMap.path)'")
        let support = context.package.directoryURL.appending(path: "Sources/CWaylandProtocols/wayland-client-support.h")
        script.append("cp '\(support.path)' '\(include.path)/'")
        return [.buildCommand(displayName: "wayland-scanner: \(xmls.count) protocols",
                              executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script.joined(separator: "\n")],
                              inputFiles: xmls + [support],
                              outputFiles: outputs + [moduleMap, include.appending(path: "wayland-client-support.h")])]
    }
}
