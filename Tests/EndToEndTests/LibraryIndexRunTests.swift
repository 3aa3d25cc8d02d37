import Foundation
import Imaging
import Library
import Pixels
import SystemPackage
import Testing
import TestSupport

/// The library index as a user meets it, in the viewer's own runs: a tree's second launch reads no photo,
/// a viewer killed while indexing keeps every batch it committed (the next launch reads only the rest),
/// and a damaged index is one line and rebuilt.
@Suite struct LibraryIndexRunTests {
    /// `count` small camera JPEGs with dates, in folders of 50.
    static func tree(_ count: Int) throws -> TemporaryFolder {
        let tree = try TemporaryFolder()
        let picture = CameraJPEG.quadrants(width: 16, height: 16)
        for i in 0..<count {
            let exif = ExifBlock(dateTaken: (String(format: "2023:%02d:%02d 12:00:%02d", 1 + i / 500 % 12, 1 + i / 20 % 28, i % 60), nil))
            _ = try tree.write(String(format: "folder%03d/IMG_%05d.jpg", i / 50, i), try #require(JPEGEncoder.encode(picture, quality: 80, exif: exif)))
        }
        return tree
    }

    /// What `--verbose` says: "library: in 12 ms, photos read and from the index: 300 0".
    func indexed(_ errors: String) -> (read: Int, fromIndex: Int)? {
        guard let line = errors.split(separator: "\n").first(where: { $0.contains("library: ") }) else { return nil }
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        return numbers.count >= 2 ? (numbers[numbers.count - 2], numbers[numbers.count - 1]) : nil
    }

    @Test func aSecondLaunchReadsNoPhoto() throws {
        let tree = try Self.tree(300), cache = try TemporaryFolder()
        var shots: [PixelImage] = []
        for run in 0..<2 {
            let shot = cache.path + "/run\(run).png"
            let (status, errors) = try ViewerProcess.run(["--headless", "--verbose", "--size", "600x500", "--screenshot", shot, tree.path],
                                                         environment: ["XDG_CACHE_HOME": cache.path])
            #expect(status == 0, "\(errors)")
            let counts = try #require(indexed(errors), "\(errors)")
            #expect(run == 0 ? counts == (300, 0) : counts == (0, 300), "run \(run): \(counts)")
            shots.append(try ImageDecoder.decode(path: shot).image)
        }
        #expect(PixelComparison(shots[0], shots[1], channelTolerance: 0).differing == 0, "the same timeline, from the index")
    }

    /// A warm launch opens no photo: the timeline, the thumbnails and an animated GIF's badge come from the index
    /// and the thumbnail cache (every open in the tree's folders, by any process, is seen through inotify). The
    /// first launch read each file once, and the badge was there both times.
    @Test func aWarmLaunchOpensNoPhoto() throws {
        let tree = try Self.tree(40), cache = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: tree.path + "/moving", withIntermediateDirectories: true)
        for name in ["a.gif", "b.gif"] { try TestGIF.write(to: tree.path + "/moving/" + name, width: 64, height: 48, frames: 3, delay: 10) }
        let script = try cache.write("dump.txt", Array("wait 100\ndump \(cache.path)/grid.json\n".utf8))
        let watch = try FileOpenWatch(folders: [tree.path + "/folder000", tree.path + "/moving"])
        for run in 0..<2 {
            let (status, errors) = try ViewerProcess.run(["--headless", "--size", "600x500", "--script", script, tree.path],
                                                         environment: ["XDG_CACHE_HOME": cache.path])
            #expect(status == 0, "\(errors)")
            let opened = watch.opened()
            if run == 0 {
                #expect(opened.count == 42, "the first launch reads every photo: \(opened.count)")
            } else {
                #expect(opened.isEmpty, "the warm launch opened \(opened)")
            }
            let badges = try DumpedNode.all(in: cache.path + "/grid.json").filter { $0.text == "GIF" }
            #expect(badges.count == 2, "run \(run): both GIFs badged")
        }
    }

    /// The thumbnails a launch makes leave their photos' mean colours in the index (what a scrub shows of a cell before
    /// its thumbnail comes): the tree's photos are red, green, blue and white in quarters, grey on average.
    @Test func theThumbnailsColoursAreKept() throws {
        let tree = try Self.tree(30), cache = try TemporaryFolder()
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "600x500", "--screenshot", cache.path + "/grid.png", tree.path],
                                                     environment: ["XDG_CACHE_HOME": cache.path])
        #expect(status == 0, "\(errors)")
        let index = try #require(LibraryIndex.open(FilePath(cache.path + "/photozoom/library.sqlite")) { _ in })
        let colours = index.entries(under: FilePath(tree.path)).values.compactMap(\.colour)
        #expect(colours.count >= 12, "the cells shown, at least: \(colours.count)")
        for colour in colours {
            let channels = [colour >> 16, colour >> 8 & 0xFF, colour & 0xFF].map(Int.init)
            #expect(channels.allSatisfy { abs($0 - 128) <= 12 }, "grey: \(String(colour, radix: 16))")
        }
    }

    /// Killed (SIGKILL) once it has committed a batch: what it committed is whole batches, and the next
    /// launch reads only the photos not in them.
    @Test func aViewerKilledWhileIndexingKeepsWhatItCommitted() throws {
        let total = 2500
        let tree = try Self.tree(total), cache = try TemporaryFolder()
        let file = FilePath(cache.path + "/photozoom/library.sqlite")
        let viewer = try ViewerProcess(["--headless", "--verbose", "--size", "600x500", "--script", "/dev/null", tree.path],
                                       environment: ["XDG_CACHE_HOME": cache.path])
        // Only a guard against a viewer that never commits: under AddressSanitizer on a slow machine its first
        // batch has come after more than 30 s.
        let deadline = Date().addingTimeInterval(120)
        var committed = 0
        while committed == 0, Date() < deadline {
            usleep(2000)
            if FileManager.default.fileExists(atPath: file.string) { committed = LibraryIndex.open(file) { _ in }?.count ?? 0 }
        }
        viewer.process.killNow()
        var said: [String] = []
        committed = try #require(LibraryIndex.open(file) { said.append($0) }).count
        #expect(said.isEmpty, "the index is whole after the kill: \(said)")
        #expect(committed > 0 && (committed % LibraryIndex.batch == 0 || committed == total), "\(committed) rows: whole batches")

        let (status, errors) = try ViewerProcess.run(["--headless", "--verbose", "--size", "600x500", "--screenshot", cache.path + "/after.png",
                                                      tree.path], environment: ["XDG_CACHE_HOME": cache.path])
        #expect(status == 0)
        let counts = try #require(indexed(errors), "\(errors)")
        #expect(counts == (total - committed, committed), "killed after \(committed): \(counts)")
        #expect(!errors.contains("warning"), "\(errors)")
    }

    @Test func aDamagedIndexIsOneLineAndRebuilt() throws {
        let tree = try Self.tree(20), cache = try TemporaryFolder()
        _ = try cache.write("photozoom/library.sqlite", Array("not a database at all".utf8) + [UInt8](repeating: 7, count: 4096))
        let (status, errors) = try ViewerProcess.run(["--headless", "--size", "600x500", "--screenshot", cache.path + "/grid.png", tree.path],
                                                     environment: ["XDG_CACHE_HOME": cache.path])
        #expect(status == 0)
        let lines = errors.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("library index") && lines[0].hasSuffix("it is rebuilt"), "\(errors)")
        #expect(LibraryIndex.open(FilePath(cache.path + "/photozoom/library.sqlite")) { _ in }?.count == 20)
    }
}
