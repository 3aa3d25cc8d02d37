import Geometry
import Imaging
import Library
import SystemPackage
import Viewer

/// The open photo's animation or clip: started when it lands, its sound, its controls, and a Live Photo's movie.
extension PhotoNavigator {
    /// Plays the open photo's animation, if it has one; stops one the viewer left (a Live Photo's movie left, its
    /// still is back).
    func updateAnimation() {
        if viewer.map({ $0.index != livePlayedOnLanding }) ?? true { livePlayedOnLanding = nil }
        // A Live Photo's movie that plays on its page plays on.
        let wanted = viewer.flatMap { animated.contains($0.index) || liveStill?.index == $0.index ? $0.index : nil }
        guard animation?.index != wanted else { return }
        showLiveStill()
        animation = nil
        defer { updateClipControls() }
        guard let i = wanted else { return }
        animation = player(for: i, playing: photos[i].file)
    }

    /// Photo `i`'s Live Photo movie: its own file beside it, or the one inside its JPEG (a Motion Photo's).
    func movie(of i: Int) -> (file: FilePath, inside: EmbeddedMovie?)? {
        guard photos.indices.contains(i) else { return nil }
        if let movie = photos[i].motion { return (movie, nil) }
        return motionMovies[photos[i].file].map { (photos[i].file, $0) }
    }

    /// A thumbnail's or the photo's decode found photo `i`'s movie inside its JPEG: it is a Live Photo.
    func markMotion(_ i: Int, _ movie: EmbeddedMovie) {
        guard photos.indices.contains(i) else { return }
        motionMovies[photos[i].file] = movie
    }

    /// Photo `i`'s frames from `file` (or the `inside` movie in it), at its fit size in device pixels (a photo shown
    /// larger draws them larger), and a clip's sound with them where the window plays sound.
    private func player(for i: Int, playing file: FilePath, inside: EmbeddedMovie? = nil) -> AnimationPlayer {
        let points = viewer?.fitSize(of: i) ?? grid.size
        let size = PixelSize(width: Int((points.width * pixelScale).rounded(.up)), height: Int((points.height * pixelScale).rounded(.up)))
        let isClip = inside != nil || ImageFormat.isClipName(file.lastComponent?.string ?? "")
        let sound = playsSound && isClip ? SoundPlayer(path: file, movie: inside, name: photos[i].name, muted: false, paused: true) : nil
        let player = AnimationPlayer(index: i, stream: queue.animationStream(path: file, movie: inside, covering: size),
                                     slack: animator.clock.frameInterval / 2, sound: sound)
        player.isMuted = isMuted
        return player
    }

    /// Space on an animated photo at rest in the viewer: it pauses, or plays on; on a Live Photo, its movie plays
    /// once and its still is back. False when there is no such photo (the key then does what Return does).
    func togglePlayback(at now: Double) -> Bool {
        guard viewer != nil, !transitions.isTransitioning else { return false }
        guard let player = animation else { return playLive(muted: isMuted) }
        player.togglePause(at: now)
        updateClipControls()
        return true
    }

    /// The open Live Photo's movie plays once, and its still is back; false when the open photo is none.
    @discardableResult
    func playLive(muted: Bool) -> Bool {
        guard let viewer, animation == nil, let movie = movie(of: viewer.index), let still = viewer.image(of: viewer.index) else {
            return false
        }
        liveStill = (viewer.index, still)
        let player = player(for: viewer.index, playing: movie.file, inside: movie.inside)
        player.isMuted = muted
        animation = player
        return true
    }

    /// A press held on the open Live Photo: its movie plays with its sound while it is held (true), and the still is
    /// back when it is let go. False when the open photo has no movie (the press lifts the photo out instead).
    func holdLive(_ held: Bool) -> Bool {
        guard let viewer, !transitions.isTransitioning, movie(of: viewer.index) != nil else { return false }
        if held {
            showLiveStill()
            return playLive(muted: isMuted)
        }
        showLiveStill()
        return true
    }

    /// Landed on a Live Photo (from the grid, or paged to), with "Live" on: its movie plays once, muted, as on a phone.
    func playLiveOnLanding() {
        guard let viewer, viewer.index != livePlayedOnLanding else { return }
        guard !transitions.isTransitioning, !viewer.isPaging, movie(of: viewer.index) != nil else { return }
        livePlayedOnLanding = viewer.index
        if playsLiveOnLanding { playLive(muted: true) }
    }

    /// The Live Photo's still in its page again, its movie over (or left).
    func showLiveStill() {
        guard let (i, still) = liveStill else { return }
        liveStill = nil
        if animation?.index == i { animation = nil }
        _ = viewer?.showFrame(still, for: i)
    }

    /// Puts up the animation's frame due at `now` (in its page, and on the copy in the air); the
    /// window's area that changed, points. Nil when no frame was due.
    func advanceAnimation(to now: Double) -> Rect? {
        playLiveOnLanding()
        guard let player = animation, let viewer else { return nil }
        // A clip's poster zooms in, and it plays from the landing (and on through a pull and the fly-home); an
        // animated picture moves in the air from the start.
        if transitions.state == .flying(toward: .viewer), player.framesShown == 0, showsClip { return nil }
        let frame = player.frame(at: now)
        if frame == nil, player.isFinished, liveStill?.index == player.index {
            showLiveStill()
            return Rect(origin: .zero, size: grid.size)
        }
        guard let image = frame else { return nil }
        let window = Rect(origin: .zero, size: grid.size)
        var damage: Rect?
        if let node = viewer.showFrame(image, for: player.index), let page = node.parent {
            damage = node.convert(node.bounds, to: nil).intersection(page.convert(page.bounds, to: nil))
        }
        // The copy in the air is the viewer's photo: this one, unless a pull took the page before it
        // settled on another.
        if let copy = transitions.flyingPhoto, viewer.index == player.index {
            copy.image = image
            let rect = copy.convert(copy.bounds, to: nil)
            damage = damage.map { $0.union(rect) } ?? rect
        }
        if let controls = updateClipControls() { damage = damage.map { $0.union(controls) } ?? controls }
        return damage.flatMap { $0.intersection(window) }
    }

    /// Whether the viewer's photo is a clip (not a Live Photo's still, whose movie has no controls).
    var showsClip: Bool {
        guard let viewer, photos.indices.contains(viewer.index) else { return false }
        return photos[viewer.index].isClip
    }

    /// The clip's controls as it plays: shown on a clip's page, at its picture's time. Where they are (window points),
    /// when what they show changed.
    @discardableResult
    func updateClipControls() -> Rect? {
        guard let viewer else { return nil }
        let controls = viewer.bar.clipControls
        controls.isShown = showsClip
        guard controls.isShown else { return nil }
        let player = animation.flatMap { $0.index == viewer.index ? $0 : nil }
        let duration = clips[photos[viewer.index].file]?.duration ?? 0
        guard controls.show(seconds: player?.time ?? 0, of: duration, paused: player?.isPaused ?? false, muted: isMuted) else { return nil }
        return controls.root.convert(controls.root.bounds, to: nil)
    }

    /// The scrub bar dragged (or tapped) to `fraction` of the clip: its picture there goes up, playing on from there
    /// unless paused.
    func scrub(to fraction: Double) {
        guard showsClip, let viewer, let player = animation, player.index == viewer.index,
              let duration = clips[photos[viewer.index].file]?.duration, duration > 0 else { return }
        player.seek(to: min(1, max(0, fraction)) * duration)
        updateClipControls()
    }

    /// `,` and `.` on a paused clip or animation: a picture back, or on. False when none is paused.
    func stepFrame(forward: Bool) -> Bool {
        guard let viewer, let player = animation, player.index == viewer.index, !transitions.isTransitioning else { return false }
        return player.step(forward: forward)
    }
}
