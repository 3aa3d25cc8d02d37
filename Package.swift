// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PhotoZoomAnimator",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "photozoom", targets: ["photozoom"]),
        .executable(name: "photozoom-bench", targets: ["photozoom-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // C at the edge: each holds only a module map and a shim header.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CX11", pkgConfig: "xi",
                       providers: [.apt(["libx11-dev", "libxi-dev", "libxext-dev", "libxtst-dev", "libxrandr-dev"])]),
        // X Present and XFixes regions through xcb, on Xlib's connection.
        .systemLibrary(name: "CXCB", providers: [.apt(["libx11-xcb-dev", "libxcb-present-dev", "libxcb-xfixes0-dev", "libxcb-shm0-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev", "zlib1g-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // No pkgConfig: libraw.pc adds -fopenmp, which SwiftPM refuses; the headers are in /usr/include.
        .systemLibrary(name: "CRaw", providers: [.apt(["libraw-dev"])]),
        // Colour management: embedded profiles to the display's.
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // The recording formats: animated WebP, GIF (with libimagequant's palettes) and H.264 MP4.
        .systemLibrary(name: "CWebPMux", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CWebPDemux", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        // FFmpeg's headers (libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev), and its
        // libraries opened when an MP4 is recorded, not linked (CAV.h says why).
        .target(name: "CAV", linkerSettings: [.linkedLibrary("dl")]),
        // Codec libraries opened when a file needs them (dlopen), not linked: CDynamicLibrary opens one;
        // CHEIF holds libheif's table (HEIC, AVIF).
        .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CHEIF", dependencies: ["CDynamicLibrary"]),
        // CJXL: libjxl's and libjxl_threads' (JPEG XL; the headers, libjxl-dev, are in /usr/include).
        .target(name: "CJXL", dependencies: ["CDynamicLibrary"]),
        // CRSVG: librsvg's (SVG).
        .target(name: "CRSVG", dependencies: ["CDynamicLibrary"]),
        // glibc's malloc tuning (part of libc: nothing to link).
        .systemLibrary(name: "CMalloc"),

        // Cairo's status codes as typed errors: the one funnel every Cairo call site goes through.
        .target(name: "Cairo", dependencies: ["CCairo"]),

        // Plain Swift, named by concept.
        .target(name: "Geometry"),
        .target(name: "Pixels"),
        .target(name: "Input", dependencies: ["Geometry"]),
        .target(name: "Animation", dependencies: ["Geometry"]),
        .target(name: "Gestures", dependencies: ["Geometry"]),
        .target(name: "Scrolling", dependencies: ["Animation"]),
        .target(name: "Scripting", dependencies: ["Geometry", "Input"]),
        .target(name: "Transitions", dependencies: ["Geometry", "Pixels", "SceneGraph", "Animation"]),
        .target(name: "Viewer", dependencies: ["Geometry", "Pixels", "SceneGraph", "Transitions", "Animation", "Scrolling"]),
        .target(name: "SceneGraph", dependencies: ["Geometry", "Pixels"]),
        .target(name: "Imaging", dependencies: [
            "Pixels", "Cairo", "CCairo", "CTurboJPEG", "CWebP", "CWebPDemux", "CPNG", "CLCMS2", "CHEIF", "CRSVG", "CTIFF", "CJXL", "CRaw", "CGIF",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "Library", dependencies: [
            "Imaging", "Pixels", "Cairo",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "Recording", dependencies: ["Pixels", "Imaging", "CWebPMux", "CGIF", "CImageQuant", "CAV"]),
        .target(name: "Rendering", dependencies: ["Geometry", "Pixels", "SceneGraph", "Imaging", "Cairo", "CCairo"]),
        .target(name: "Grid", dependencies: ["Geometry", "Pixels", "SceneGraph", "Animation", "Scrolling", "Transitions"]),
        .target(name: "X11Platform", dependencies: [
            "Geometry", "Input", "CX11", "CXCB", "Cairo", "CCairo",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "App", dependencies: [
            "Geometry", "Input", "Pixels", "SceneGraph", "Animation", "Gestures", "Scripting", "Transitions", "Viewer", "Grid",
            "Library",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "photozoom", dependencies: [
            "App", "Animation", "Cairo", "CCairo", "CMalloc", "Geometry", "Grid", "Library", "Pixels", "Recording", "Scripting", "Transitions", "X11Platform", "Imaging",
            "Rendering", "SceneGraph",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),

        // Prints how long decoding, drawing and presenting take (`make bench`).
        .executableTarget(name: "photozoom-bench", dependencies: [
            "App", "Animation", "Imaging", "Library", "Pixels", "Recording", "Rendering", "X11Platform", "Geometry", "CX11",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),

        // What the fuzzer runs over the decoders, the EXIF reader and the script parser, and the
        // libFuzzer harness around it (`make fuzz`).
        .target(name: "FuzzTargets", dependencies: ["Imaging", "Pixels", "Scripting"]),
        .executableTarget(name: "photozoom-fuzz", dependencies: ["FuzzTargets"]),

        // Snapshot comparison and test pictures, shared by the test targets.
        // The MP4 reader calls FFmpeg directly: the tests link it.
        .target(name: "TestSupport", dependencies: [
            "Pixels", "Imaging", "CWebPDemux", "CGIF", "CAV", .product(name: "SystemPackage", package: "swift-system"),
        ], linkerSettings: ["avformat", "avcodec", "swscale", "avutil"].map { .linkedLibrary($0) }),

        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "SceneGraphTests", dependencies: ["SceneGraph", "Geometry"]),
        .testTarget(name: "GridTests", dependencies: ["Grid", "Geometry", "Animation", "SceneGraph", "Transitions"]),
        .testTarget(name: "AnimationTests", dependencies: ["Animation", "Geometry"]),
        .testTarget(name: "GestureTests", dependencies: ["Gestures", "Geometry"]),
        .testTarget(name: "ScrollingTests", dependencies: ["Scrolling", "Animation"]),
        .testTarget(name: "ViewerTests", dependencies: ["Viewer", "Geometry", "Animation", "Pixels"]),
        .testTarget(name: "TransitionTests", dependencies: ["Transitions", "Animation", "Geometry", "Pixels", "SceneGraph"]),
        .testTarget(name: "ScriptingTests", dependencies: ["Scripting", "Input", "Geometry"], exclude: ["Fixtures"]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "Pixels", "Imaging", "TestSupport"]),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzTargets"], exclude: ["Findings"]),
        .testTarget(name: "X11PlatformTests", dependencies: ["X11Platform", "CX11", "Input", "Geometry"]),
        .testTarget(name: "LibraryTests", dependencies: [
            "Library", "Imaging", "Pixels", "TestSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .testTarget(name: "ImagingTests", dependencies: [
            "Imaging", "Pixels", "Cairo", "CCairo", "TestSupport", .product(name: "SystemPackage", package: "swift-system"),
        ],
                    exclude: ["Fixtures"]),
        .testTarget(name: "RenderingTests", dependencies: [
            "Rendering", "SceneGraph", "Pixels", "Geometry", "Imaging", "TestSupport",
        ], exclude: ["Snapshots"]),
        .testTarget(name: "AppTests", dependencies: [
            "App", "Viewer", "Transitions", "Rendering", "SceneGraph", "Pixels", "Imaging", "Geometry", "Input",
            "Animation", "Library", "TestSupport",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SystemPackage", package: "swift-system"),
        ], exclude: ["Snapshots"]),
        // Runs the built `photozoom` binary, headless and against its own Xvfb server.
        // `photozoom` is not imported: the tests run the binary, which must be built first.
        .testTarget(name: "EndToEndTests", dependencies: ["photozoom", "Animation", "CX11", "Pixels", "Imaging", "TestSupport"]),
    ]
)
