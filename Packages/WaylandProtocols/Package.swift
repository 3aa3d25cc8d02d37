// swift-tools-version: 6.3;(experimentalCGen)
// The Wayland protocols the viewer speaks, as C bindings that `wayland-scanner` generates at build time
// from the XML that Debian's `wayland-protocols` (and `libwayland-dev`) install. A package of its own:
// plugin-generated C (headers, module map, code) is still an experimental SwiftPM feature, and this
// keeps the experiment out of the main manifest.
import PackageDescription

let package = Package(
    name: "WaylandProtocols",
    products: [.library(name: "CWaylandProtocols", targets: ["CWaylandProtocols"])],
    targets: [
        .plugin(name: "WaylandScanner", capability: .buildTool()),
        .target(name: "CWaylandProtocols", plugins: ["WaylandScanner"]),
    ]
)
