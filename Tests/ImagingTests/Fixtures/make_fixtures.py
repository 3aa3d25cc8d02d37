#!/usr/bin/env python3
"""Makes the decoding fixtures in this folder. Run from anywhere; needs ImageMagick (convert),
colord-data's ICC profiles, heif-enc (libheif-examples), FFmpeg with libaom and cjxl (libjxl-tools).

The pictures are one asymmetric 64x48 image: four quadrants, top-left red, top-right green,
bottom-left blue, bottom-right white, so any turn or mirror of it is told apart by its corners.
PNGs are written here byte by byte (every colour type and bit depth); JPEG and WebP through
ImageMagick; the EXIF Orientation segment is inserted by hand.
"""
import os, struct, subprocess, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 64, 48
QUADRANT_RGB = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]  # TL, TR, BL, BR


def quadrant(x, y):
    return (1 if x >= W // 2 else 0) + (2 if y >= H // 2 else 0)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(name, color_type, depth, sample, palette=None, trns=None, width=W, height=H, data_override=None):
    """sample(x, y) -> tuple of channel values at `depth` bits."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    raw = bytearray()
    for y in range(height if data_override is None else 0):
        raw.append(0)  # filter: none
        if depth < 8:
            bits, nbits = 0, 0
            row = bytearray()
            for x in range(width):
                bits = (bits << depth) | sample(x, y)[0]
                nbits += depth
                if nbits == 8:
                    row.append(bits); bits, nbits = 0, 0
            if nbits:
                row.append(bits << (8 - nbits))
            raw += row
        else:
            for x in range(width):
                for v in sample(x, y):
                    raw += struct.pack(">H", v) if depth == 16 else bytes([v])
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0))
    if palette:
        out += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    out += chunk(b"IDAT", data_override if data_override is not None else zlib.compress(bytes(raw)))
    out += chunk(b"IEND", b"")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(out)


def write_pngs():
    # Greyscale: quadrant i gets level i (1-bit: black, white, white, black).
    png("gray1.png", 0, 1, lambda x, y: ((0, 1, 1, 0)[quadrant(x, y)],))
    for d in (2, 4, 8, 16):
        png(f"gray{d}.png", 0, d, lambda x, y, d=d: ((0, 1, 2, 3)[quadrant(x, y)] * ((1 << d) - 1) // 3,))
    for d in (8, 16):
        top = (1 << d) - 1
        # Grey + alpha: the bottom-right quadrant is white at half opacity.
        png(f"graya{d}.png", 4, d, lambda x, y, d=d, top=top:
            ((0, 1, 2, 3)[quadrant(x, y)] * top // 3, top // 2 if quadrant(x, y) == 3 else top))
        scale = lambda v, top=top: v * top // 255
        png(f"rgb{d}.png", 2, d, lambda x, y, s=scale: tuple(s(v) for v in QUADRANT_RGB[quadrant(x, y)]))
        png(f"rgba{d}.png", 6, d, lambda x, y, s=scale, top=top:
            tuple(s(v) for v in QUADRANT_RGB[quadrant(x, y)]) + ((top // 2) if quadrant(x, y) == 3 else top,))
    png("palette1.png", 3, 1, lambda x, y: ((0, 1, 1, 0)[quadrant(x, y)],), palette=[(255, 0, 0), (0, 0, 255)])
    for d in (2, 4, 8):
        png(f"palette{d}.png", 3, d, lambda x, y: (quadrant(x, y),), palette=QUADRANT_RGB)
    # Palette with tRNS: the white entry is fully transparent.
    png("palette8-trns.png", 3, 8, lambda x, y: (quadrant(x, y),), palette=QUADRANT_RGB, trns=bytes([255, 255, 255, 0]))

    # Bad input: a header that claims 100000x100000 pixels (and one tiny IDAT).
    png("huge-claim.png", 2, 8, None, width=100000, height=100000, data_override=zlib.compress(b"\0" * 16))


def convert(*args):
    subprocess.run(["convert", *args], check=True)


def exif_app1(orientation, big_endian):
    if big_endian:
        tiff = b"MM" + struct.pack(">HI", 42, 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    else:
        tiff = b"II" + struct.pack("<HI", 42, 8) + struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def write_jpegs():
    upright = os.path.join(HERE, "rgb8.png")
    common = ["-strip", "-quality", "95", "-sampling-factor", "1x1"]
    convert(upright, *common, os.path.join(HERE, "baseline.jpg"))
    convert(upright, *common, "-interlace", "Plane", os.path.join(HERE, "progressive.jpg"))
    convert(upright, *common, "-colorspace", "Gray", "-type", "Grayscale", os.path.join(HERE, "grayscale.jpg"))
    convert(upright, *common, "-colorspace", "CMYK", os.path.join(HERE, "cmyk.jpg"))
    convert(upright, "-strip", "-quality", "95", os.path.join(HERE, "quadrants.webp"))
    convert(os.path.join(HERE, "rgba8.png"), "-strip", "-define", "webp:lossless=true", os.path.join(HERE, "alpha.webp"))
    # A real photograph as lossy WebP, from the bundled chelsea.png.
    convert(os.path.join(HERE, "../../../Images/chelsea.png"), "-strip", "-quality", "80", os.path.join(HERE, "chelsea.webp"))
    # The stored pixels of orientation n are the upright picture turned by the inverse of n's
    # display transform, so that a viewer applying n shows it upright again.
    inverse = {1: [], 2: ["-flop"], 3: ["-rotate", "180"], 4: ["-flip"], 5: ["-transpose"],
               6: ["-rotate", "-90"], 7: ["-transverse"], 8: ["-rotate", "90"]}
    for n, ops in inverse.items():
        path = os.path.join(HERE, f"orientation{n}.jpg")
        convert(upright, *ops, *common, path)
        data = open(path, "rb").read()
        assert data[:2] == b"\xff\xd8"
        with open(path, "wb") as f:
            f.write(data[:2] + exif_app1(n, big_endian=(n % 2 == 0)) + data[2:])


def jpeg_segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def write_odd_jpegs():
    """Whole files that libjpeg-turbo warns about or can't decode."""
    baseline = open(os.path.join(HERE, "baseline.jpg"), "rb").read()
    # Three stray bytes before the quantization table: djpeg warns and shows the whole picture.
    dqt = baseline.index(b"\xff\xdb")
    with open(os.path.join(HERE, "extraneous-bytes.jpg"), "wb") as f:
        f.write(baseline[:dqt] + b"\0\0\0" + baseline[dqt:])
    # The height given by a DNL marker after the first scan instead of in the frame header.
    sof = baseline.index(b"\xff\xc0")
    height = baseline[sof + 5:sof + 7]
    dnl = bytearray(baseline)
    dnl[sof + 5:sof + 7] = b"\0\0"
    with open(os.path.join(HERE, "dnl-height.jpg"), "wb") as f:
        f.write(bytes(dnl[:-2]) + jpeg_segment(0xDC, height) + b"\xff\xd9")
    # A real 12-bit JPEG (extended sequential, SOF1): one 8x8 block of mid grey. Its DC difference is
    # 0 (category 0) and every AC coefficient 0 (end of block), each a one-bit code "0".
    table = jpeg_segment(0xDB, bytes([0x10]) + struct.pack(">64H", *([1] * 64)))       # 16-bit entries, all 1
    frame = jpeg_segment(0xC1, bytes([12]) + struct.pack(">HH", 8, 8) + bytes([1, 1, 0x11, 0]))
    dc = jpeg_segment(0xC4, bytes([0x00, 1] + [0] * 15 + [0]))                          # one code: category 0
    ac = jpeg_segment(0xC4, bytes([0x10, 1] + [0] * 15 + [0]))                          # one code: EOB
    scan = jpeg_segment(0xDA, bytes([1, 1, 0x00, 0, 63, 0]))
    with open(os.path.join(HERE, "precision12.jpg"), "wb") as f:
        f.write(b"\xff\xd8" + table + frame + dc + ac + scan + bytes([0x3F]) + b"\xff\xd9")


def write_hostile_pngs():
    """PNGs whose chunks claim far more than the file holds."""
    header = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    for kind in (b"tEXt", b"zTXt", b"iTXt", b"iCCP"):
        with open(os.path.join(HERE, f"claims-1gib-{kind.decode()}.png"), "wb") as f:
            f.write(header + struct.pack(">I", 1 << 30) + kind + b"k\0")


ICC = "/usr/share/color/icc/colord"  # colord-data


def padded_profile(path, extra):
    """The ICC profile at `path` with a private tag of `extra` bytes added: too large for one JPEG
    segment, so that it must be split across several."""
    data = bytearray(open(path, "rb").read())
    count = struct.unpack(">I", data[128:132])[0]
    table_end = 132 + 12 * count
    # Every tag's offset moves by the new table entry's 12 bytes; the new tag goes at the end.
    entries = []
    for i in range(count):
        sig, offset, size = struct.unpack(">4sII", data[132 + 12 * i:144 + 12 * i])
        entries.append((sig, offset + 12, size))
    body = data[table_end:]
    end = table_end + 12 + len(body)
    end += (-end) % 4
    entries.append((b"pzpd", end, 8 + extra))
    tag = b"pzpd" + b"\0" * 4 + bytes(i % 251 for i in range(extra))
    out = data[:128] + struct.pack(">I", count + 1) + b"".join(struct.pack(">4sII", *e) for e in entries)
    out += body + b"\0" * ((-(table_end + 12 + len(body))) % 4) + tag
    out[0:4] = struct.pack(">I", len(out))
    out[84:100] = b"\0" * 16  # the profile ID (an MD5) no longer matches: zero means "not computed"
    return bytes(out)


def with_icc_segments(jpeg, profile, segment=60000):
    """`jpeg` without its APP2 ICC segments, and `profile` in new ones of at most `segment` bytes."""
    out, i = bytearray(jpeg[:2]), 2
    while jpeg[i] == 0xFF and jpeg[i + 1] not in (0xDA, 0xD9):
        length = struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        if not (jpeg[i + 1] == 0xE2 and jpeg[i + 4:i + 16] == b"ICC_PROFILE\0"):
            out += jpeg[i:i + 2 + length]
        i += 2 + length
    parts = [profile[k:k + segment] for k in range(0, len(profile), segment)]
    icc = b"".join(jpeg_segment(0xE2, b"ICC_PROFILE\0" + bytes([n + 1, len(parts)]) + part) for n, part in enumerate(parts))
    return bytes(out[:2]) + icc + bytes(out[2:]) + jpeg[i:]


def write_colour_fixtures():
    """Pictures whose numbers mean something other than sRGB, each with the description that says so."""
    red = ["-size", "64x48", "xc:rgb(255,0,0)", "-profile", f"{ICC}/sRGB.icc"]
    common = ["-quality", "95", "-sampling-factor", "1x1"]
    # Pure sRGB red, its numbers converted to Adobe RGB and ProPhoto RGB, the profile embedded.
    for name in ("AdobeRGB1998", "ProPhotoRGB"):
        short = {"AdobeRGB1998": "adobergb", "ProPhotoRGB": "prophoto"}[name]
        convert(*red, "-profile", f"{ICC}/{name}.icc", *common, os.path.join(HERE, f"red-{short}.jpg"))
        convert(*red, "-profile", f"{ICC}/{name}.icc", "-define", "png:color-type=2", os.path.join(HERE, f"red-{short}.png"))
        convert(*red, "-profile", f"{ICC}/{name}.icc", "-define", "webp:lossless=true", os.path.join(HERE, f"red-{short}.webp"))
    # The quadrants with red and green swapped in the numbers and a profile that swaps them back.
    upright = os.path.join(HERE, "rgb8.png")
    swap = ["-profile", f"{ICC}/sRGB.icc", "-profile", f"{ICC}/SwappedRedAndGreen.icc"]
    convert(upright, *swap, "-define", "png:color-type=2", os.path.join(HERE, "swapped-icc.png"))
    convert(upright, *swap, *common, os.path.join(HERE, "swapped-icc.jpg"))
    # The same profile grown past a JPEG segment's 64 KiB, in three APP2 segments.
    jpeg = open(os.path.join(HERE, "swapped-icc.jpg"), "rb").read()
    profile = padded_profile(f"{ICC}/SwappedRedAndGreen.icc", 150_000)
    with open(os.path.join(HERE, "swapped-icc-segments.jpg"), "wb") as f:
        f.write(with_icc_segments(jpeg, profile))
    # A PNG without a profile whose cHRM swaps the red and green primaries (gAMA 1/2.2): its stored
    # numbers are the quadrants with red and green swapped.
    def swapped(x, y):
        r, g, b = QUADRANT_RGB[quadrant(x, y)]
        return (g, r, b)
    chrm = struct.pack(">8I", 31270, 32900, 30000, 60000, 64000, 33000, 15000, 6000)
    raw = b"".join(b"\0" + b"".join(bytes(swapped(x, y)) for x in range(W)) for y in range(H))
    with open(os.path.join(HERE, "swapped-chrm.png"), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
                + chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"cHRM", chrm)
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def boxes(data, start, end):
    """The ISO BMFF boxes in data[start:end]: (type, start, header size, end)."""
    out, i = [], start
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        out.append((kind, i, 8, i + size))
        i += size
    return out


def with_item_properties(heif, properties):
    """`heif` with each box in `properties` added to its `ipco` and associated (as essential) with the
    primary item and its thumbnails, every size and offset the insertion moves put right."""
    data = bytearray(heif)
    meta = next(b for b in boxes(data, 0, len(data)) if b[0] == b"meta")
    inner = boxes(data, meta[1] + 12, meta[3])            # meta is a full box: 4 bytes after its header
    get = lambda kind: next(b for b in inner if b[0] == kind)
    primary = struct.unpack(">H", data[get(b"pitm")[1] + 12:get(b"pitm")[1] + 14])[0]
    thumbnails = set()
    for kind, start, _, end in [b for b in inner if b[0] == b"iref"]:
        for ref, rs, _, re in boxes(data, start + 12, end):
            source, count = struct.unpack(">HH", data[rs + 8:rs + 12])
            targets = struct.unpack(f">{count}H", data[rs + 12:rs + 12 + 2 * count])
            if ref == b"thmb" and primary in targets:
                thumbnails.add(source)
    iprp = get(b"iprp")
    ipco = next(b for b in boxes(data, iprp[1] + 8, iprp[3]) if b[0] == b"ipco")
    ipma = next(b for b in boxes(data, iprp[1] + 8, iprp[3]) if b[0] == b"ipma")
    first_index = len(boxes(data, ipco[1] + 8, ipco[3])) + 1
    added = b"".join(properties)
    # The new ipma: the same entries, the new properties appended to the chosen items'.
    version, flags = data[ipma[1] + 8], int.from_bytes(data[ipma[1] + 9:ipma[1] + 12], "big")
    i = ipma[1] + 12
    count = struct.unpack(">I", data[i:i + 4])[0]
    i += 4
    entries = b""
    for _ in range(count):
        item = struct.unpack(">I" if version >= 1 else ">H", data[i:i + (4 if version >= 1 else 2)])[0]
        i += 4 if version >= 1 else 2
        n = data[i]
        width = 2 if flags & 1 else 1
        associations = data[i + 1:i + 1 + n * width]
        i += 1 + n * width
        extra = []
        if item == primary or item in thumbnails:
            extra = [0x8000 | (first_index + k) if width == 2 else 0x80 | (first_index + k) for k in range(len(properties))]
        entries += (struct.pack(">I" if version >= 1 else ">H", item) + bytes([n + len(extra)]) + associations
                    + b"".join(struct.pack(">H" if width == 2 else ">B", e) for e in extra))
    new_ipma = data[ipma[1] + 8:ipma[1] + 12] + struct.pack(">I", count) + entries
    new_ipma = struct.pack(">I", 8 + len(new_ipma)) + b"ipma" + new_ipma
    new_ipco = data[ipco[1]:ipco[3]] + added
    new_ipco[0:4] = struct.pack(">I", len(new_ipco))
    # iprp holds ipco and ipma (and nothing else here).
    new_iprp = b"iprp" + bytes(new_ipco) + bytes(new_ipma)
    new_iprp = struct.pack(">I", 4 + len(new_iprp)) + new_iprp
    delta = len(new_iprp) - (iprp[3] - iprp[1])
    data[iprp[1]:iprp[3]] = new_iprp
    data[meta[1]:meta[1] + 4] = struct.pack(">I", meta[3] - meta[1] + delta)
    # iloc's file offsets (construction method 0) past the meta box move by delta.
    inner = boxes(data, meta[1] + 12, meta[3] + delta)
    iloc = get(b"iloc")
    i = iloc[1] + 8
    version = data[i]
    i += 4
    sizes = data[i] >> 4, data[i] & 15, data[i + 1] >> 4, (data[i + 1] & 15 if version >= 1 else 0)
    offset_size, length_size, base_size, index_size = sizes
    i += 2
    count = struct.unpack(">I" if version == 2 else ">H", data[i:i + (4 if version == 2 else 2)])[0]
    i += 4 if version == 2 else 2

    def field(at, size):
        return int.from_bytes(data[at:at + size], "big") if size else 0

    def shift(at, size):
        if size:
            data[at:at + size] = (field(at, size) + delta).to_bytes(size, "big")

    for _ in range(count):
        i += 4 if version == 2 else 2
        method = 0
        if version >= 1:
            method = struct.unpack(">H", data[i:i + 2])[0] & 15
            i += 2
        i += 2  # data reference index
        base_at = i
        base = field(i, base_size)
        i += base_size
        extents = struct.unpack(">H", data[i:i + 2])[0]
        i += 2
        if method == 0 and base_size and base:
            shift(base_at, base_size)
        for _ in range(extents):
            i += index_size
            if method == 0 and not (base_size and base):
                shift(i, offset_size)
            i += offset_size + length_size
    return bytes(data)


def write_heif_fixtures():
    """HEIC through heif-enc (x265), AVIF through FFmpeg (libaom; heif-enc's AVIF path aborts here)."""
    tmp = os.path.join(HERE, "tmp-heif")
    os.makedirs(tmp, exist_ok=True)
    upright = os.path.join(HERE, "rgb8.png")

    def heif_enc(source, target, *options):
        subprocess.run(["heif-enc", "-q", "95", "-p", "chroma=444", *options, source, "-o", os.path.join(HERE, target)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    heif_enc(upright, "quadrants.heic")
    # As a phone stores a portrait photo: the pixels turned (here 90° clockwise), the container's irot
    # turning them back (90° anticlockwise), and an EXIF block whose orientation (6) describes the same
    # turn again: applied twice, the picture would lie on its side.
    turned = os.path.join(tmp, "turned.jpg")
    convert(upright, "-rotate", "90", "-quality", "95", "-sampling-factor", "1x1", turned)
    jpeg = open(turned, "rb").read()
    with open(turned, "wb") as f:
        f.write(jpeg[:2] + exif_app1(6, big_endian=False) + jpeg[2:])
    heif_enc(turned, "tmp-heif/turned.heic")
    irot = struct.pack(">I4sB", 9, b"irot", 1)
    with open(os.path.join(HERE, "rotated-exif6.heic"), "wb") as f:
        f.write(with_item_properties(open(os.path.join(tmp, "turned.heic"), "rb").read(), [irot]))
    # Mirrored left to right (imir axis 1: about a vertical axis).
    flopped = os.path.join(tmp, "flopped.png")
    convert(upright, "-flop", "-define", "png:color-type=2", flopped)
    heif_enc(flopped, "tmp-heif/flopped.heic")
    imir = struct.pack(">I4sB", 9, b"imir", 1)
    with open(os.path.join(HERE, "mirrored.heic"), "wb") as f:
        f.write(with_item_properties(open(os.path.join(tmp, "flopped.heic"), "rb").read(), [imir]))
    # 10 bits a channel, from the 16-bit PNG; and alpha.
    heif_enc(os.path.join(HERE, "rgb16.png"), "quadrants-10bit.heic", "-b", "10")
    heif_enc(os.path.join(HERE, "rgba8.png"), "alpha.heic")
    # A camera-sized picture with a 320x240 thumbnail item, as phones write them.
    big = os.path.join(tmp, "big.png")
    convert(upright, "-filter", "point", "-resize", "1024x768", "-define", "png:color-type=2", big)
    heif_enc(big, "thumbnail-item.heic", "-t", "320")
    # sRGB red in ProPhoto numbers with the ProPhoto ICC profile (heif-enc carries the PNG's iCCP over).
    heif_enc(os.path.join(HERE, "red-prophoto.png"), "red-prophoto.heic")
    # Display P3 numbers for pure sRGB red, tagged with nclx code points: primaries 12 (P3 D65),
    # transfer 13 (sRGB), matrix 6 (BT.601, as heif-enc encodes), full range.
    p3 = os.path.join(tmp, "p3red.png")
    convert("-size", "64x48", "xc:rgb(234,51,35)", "-define", "png:color-type=2", p3)
    heif_enc(p3, "tmp-heif/p3red.heic")
    nclx = struct.pack(">I4s4sHHHB", 19, b"colr", b"nclx", 12, 13, 6, 0x80)
    with open(os.path.join(HERE, "red-p3-nclx.heic"), "wb") as f:
        f.write(with_item_properties(open(os.path.join(tmp, "p3red.heic"), "rb").read(), [nclx]))

    def avif(source, target, *options):
        # Converted to YCbCr with the BT.709 matrix, full range, as the nclx box says.
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", source, "-vf", "scale=out_color_matrix=bt709:out_range=full",
                        "-c:v", "libaom-av1", "-still-picture", "1", "-pix_fmt", "yuv444p", "-crf", "10",
                        "-color_trc", "iec61966-2-1", "-colorspace", "bt709", "-color_range", "pc", *options,
                        os.path.join(HERE, target)], check=True)

    avif(upright, "quadrants.avif", "-color_primaries", "bt709")
    avif(p3, "red-p3-nclx.avif", "-color_primaries", "smpte432")
    for name in os.listdir(tmp):
        os.remove(os.path.join(tmp, name))
    os.rmdir(tmp)


def write_tiff_fixtures():
    """TIFFs in the layouts cameras, scanners and editors write, through ImageMagick."""
    upright = os.path.join(HERE, "rgb8.png")
    convert(upright, "-compress", "lzw", os.path.join(HERE, "quadrants.tif"))
    convert(os.path.join(HERE, "rgb16.png"), "-depth", "16", "-define", "tiff:endian=msb", "-compress", "zip",
            os.path.join(HERE, "quadrants-16bit-bigendian.tif"))
    convert(upright, "-colorspace", "CMYK", os.path.join(HERE, "quadrants-cmyk.tif"))
    convert(upright, "-define", "tiff:tile-geometry=16x16", "-compress", "lzw", os.path.join(HERE, "quadrants-tiled.tif"))
    convert(os.path.join(HERE, "rgba8.png"), os.path.join(HERE, "alpha.tif"))
    # Stored turned, with an Orientation tag (6) that turns it upright.
    convert(upright, "-rotate", "-90", "-orient", "RightTop", os.path.join(HERE, "orientation6.tif"))
    # Two pages: the first is the picture.
    convert(upright, "-size", "30x30", "xc:black", os.path.join(HERE, "two-pages.tif"))
    convert("-size", "64x48", "xc:rgb(255,0,0)", "-profile", f"{ICC}/sRGB.icc", "-profile", f"{ICC}/ProPhotoRGB.icc",
            os.path.join(HERE, "red-prophoto.tif"))


def write_jxl_fixtures():
    """JPEG XL through cjxl (libjxl-tools): lossless (the original profile kept) and lossy (XYB)."""
    def cjxl(source, target, distance):
        subprocess.run(["cjxl", source, os.path.join(HERE, target), "-d", str(distance)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    cjxl(os.path.join(HERE, "rgb8.png"), "quadrants.jxl", 0)
    cjxl(os.path.join(HERE, "rgb8.png"), "quadrants-lossy.jxl", 1)
    cjxl(os.path.join(HERE, "rgba8.png"), "alpha.jxl", 0)
    cjxl(os.path.join(HERE, "red-prophoto.png"), "red-prophoto.jxl", 0)
    cjxl(os.path.join(HERE, "red-prophoto.png"), "red-prophoto-lossy.jxl", 1)


def write_svg_fixtures():
    """SVGs by hand: the quadrants at a declared size, and with only a viewBox."""
    rects = "".join(f'<rect x="{x}" y="{y}" width="32" height="24" fill="rgb{c}"/>'
                    for (x, y), c in zip([(0, 0), (32, 0), (0, 24), (32, 24)], QUADRANT_RGB))
    with open(os.path.join(HERE, "quadrants.svg"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!-- four quadrants -->\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">{rects}</svg>\n')
    with open(os.path.join(HERE, "viewbox-only.svg"), "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 48">{rects}</svg>\n')
    # Text in the generic families and styles (a diagram's labels): drawn in the fonts fontconfig finds.
    lines = [("sans-serif", "normal", "normal", "Sans Hello"), ("serif", "bold", "normal", "Serif Bold"),
             ("monospace", "normal", "italic", "Mono italic"), ("Helvetica", "normal", "normal", "Helvetica")]
    texts = "".join(f'<text x="10" y="{30 + 40 * i}" font-family="{family}" font-weight="{weight}" font-style="{style}" '
                    f'font-size="24">{words}</text>' for i, (family, weight, style, words) in enumerate(lines))
    with open(os.path.join(HERE, "text.svg"), "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="240" height="170"><rect width="240" height="170" fill="#fff"/>'
                f'{texts}</svg>\n')


def tiff_file(ifds):
    """A little-endian TIFF of the directories `ifds`: each a list of (tag, type, values) and, for the
    data it points to, bytes in place of values; the first is IFD0, the rest its SubIFDs."""
    sizes = {1: 1, 2: 1, 3: 2, 4: 4, 7: 1}
    codes = {1: "B", 2: "B", 3: "H", 4: "I", 7: "B"}
    directory_sizes = [2 + 12 * len(entries) + 4 for entries in ifds]
    offsets = [8 + sum(directory_sizes[:i]) for i in range(len(ifds))]
    data, data_at = b"", 8 + sum(directory_sizes)

    def place(blob):
        nonlocal data
        at = data_at + len(data)
        data += blob + (b"\0" if len(blob) % 2 else b"")
        return at

    out = b"II*\0" + struct.pack("<I", offsets[0])
    for n, entries in enumerate(ifds):
        out += struct.pack("<H", len(entries))
        for tag, kind, values in sorted(entries, key=lambda e: e[0]):
            if values == "SUBIFDS":
                values = offsets[1:]
            elif isinstance(values, bytes) and kind in (4,) :
                values = [place(values)]
            if isinstance(values, str):
                values = list(values.encode() + b"\0")
            packed = struct.pack("<" + codes[kind] * len(values), *values)
            if len(packed) <= 4:
                out += struct.pack("<HHI", tag, kind, len(values)) + packed.ljust(4, b"\0")
            else:
                out += struct.pack("<HHII", tag, kind, len(values), place(packed))
        out += struct.pack("<I", 0)
    return out + data


def write_raw_fixtures():
    """A DNG as a camera writes one, by hand (no free tool writes DNG): IFD0 is the full-size preview
    JPEG, stored as the sensor saw it with Orientation 6 saying how the camera was held; its SubIFD
    holds the sensor's raw mosaic."""
    tmp = os.path.join(HERE, "tmp-preview.jpg")
    convert(os.path.join(HERE, "rgb8.png"), "-rotate", "-90", "-strip", "-quality", "95", "-sampling-factor", "1x1", tmp)
    preview = open(tmp, "rb").read()
    os.remove(tmp)
    mosaic = bytes(64 * 48 * 2)
    ifd0 = [(254, 4, [1]), (256, 4, [48]), (257, 4, [64]), (258, 3, [8, 8, 8]), (259, 3, [7]), (262, 3, [6]),
            (271, 2, "PhotoZoom"), (272, 2, "Fixture"), (273, 4, preview), (274, 3, [6]), (277, 3, [3]), (278, 4, [64]),
            (279, 4, [len(preview)]), (330, 4, "SUBIFDS"), (50706, 1, [1, 4, 0, 0]), (50708, 2, "PhotoZoom Fixture")]
    raw = [(254, 4, [0]), (256, 4, [64]), (257, 4, [48]), (258, 3, [16]), (259, 3, [1]), (262, 3, [32803]),
           (273, 4, mosaic), (277, 3, [1]), (278, 4, [48]), (279, 4, [len(mosaic)]), (33421, 3, [2, 2]), (33422, 1, [0, 1, 1, 2])]
    with open(os.path.join(HERE, "preview-orientation6.dng"), "wb") as f:
        f.write(tiff_file([ifd0, raw]))


def lzw_literal(indices, min_code_size):
    """GIF LZW data that codes each index as itself (a clear code before the table would grow), which
    any decoder reads: the compression is not the point of these fixtures."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    size = min_code_size + 1
    codes, since_clear = [clear], 0
    for index in indices:
        if since_clear == (1 << size) - clear - 2:
            codes.append(clear)
            since_clear = 0
        codes.append(index)
        since_clear += 1
    codes.append(end)
    bits, nbits, out = 0, 0, bytearray()
    for code in codes:
        bits |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        out.append(bits)
    blocks = b"".join(bytes([len(out[i:i + 255])]) + bytes(out[i:i + 255]) for i in range(0, len(out), 255))
    return bytes([min_code_size]) + blocks + b"\0"


def gif(frames, width, height, palette, loop=None):
    """A GIF of `frames`: each (x, y, w, h, indices, delay in 1/100 s, disposal, transparent index)."""
    table = b"".join(bytes(c) for c in palette) + b"\0" * (3 * (256 - len(palette)))
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0) + table
    if loop is not None:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\0"
    for x, y, w, h, indices, delay, disposal, transparent in frames:
        flags = disposal << 2 | (1 if transparent is not None else 0)
        out += b"\x21\xf9\x04" + bytes([flags]) + struct.pack("<H", delay) + bytes([transparent or 0]) + b"\0"
        out += b"\x2c" + struct.pack("<HHHHB", x, y, w, h, 0) + lzw_literal(indices, 8)
    return out + b"\x3b"


def apng(frames, width, height, plays):
    """An APNG of RGBA `frames`: each (x, y, w, h, rows of (r, g, b, a), delay ms, dispose_op, blend_op).
    The first frame is the default image (IDAT)."""
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    out += chunk(b"acTL", struct.pack(">II", len(frames), plays))
    sequence = 0
    for n, (x, y, w, h, rows, delay, dispose, blend) in enumerate(frames):
        out += chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, w, h, x, y, delay, 1000, dispose, blend))
        sequence += 1
        data = zlib.compress(b"".join(b"\0" + b"".join(bytes(p) for p in row) for row in rows))
        if n == 0:
            out += chunk(b"IDAT", data)
        else:
            out += chunk(b"fdAT", struct.pack(">I", sequence) + data)
            sequence += 1
    return out + chunk(b"IEND", b"")


def write_animation_fixtures():
    """Animations whose frames, timing, disposal and loop count are known to the byte: GIF and APNG
    by hand, animated WebP through img2webp."""
    # GIF: red, then a green square whose area is cleared after it, then a blue square (its corner
    # transparent) restored away after it, then white, over 64x48. Delays 0 (counts as 100 ms),
    # 200, 50 and 300 ms; it repeats twice more (NETSCAPE loop count 2: three plays).
    palette = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    square = lambda i: [i] * 256
    blue = [3 if (k // 16 < 4 and k % 16 < 4) else 2 for k in range(256)]
    frames = [(0, 0, 64, 48, [0] * (64 * 48), 0, 1, None),
              (8, 8, 16, 16, square(1), 20, 2, None),
              (40, 8, 16, 16, blue, 5, 3, 3),
              (24, 24, 16, 16, square(3), 30, 1, None)]
    with open(os.path.join(HERE, "frames.gif"), "wb") as f:
        f.write(gif(frames, 64, 48, palette, loop=2))
    # One frame: a still GIF.
    with open(os.path.join(HERE, "still.gif"), "wb") as f:
        f.write(gif(frames[:1], 64, 48, palette))
    # APNG: the same story with its own operations; plays twice.
    red, green, blue = (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)
    half = (255, 255, 255, 128)
    frames = [(0, 0, 64, 48, [[red] * 64] * 48, 100, 0, 0),
              (8, 8, 16, 16, [[green] * 16] * 16, 200, 1, 0),
              (40, 8, 16, 16, [[half] * 16] * 16, 50, 2, 1),
              (24, 24, 16, 16, [[blue] * 16] * 16, 300, 0, 0)]
    with open(os.path.join(HERE, "frames.apng"), "wb") as f:
        f.write(apng(frames, 64, 48, plays=2))
    # Animated WebP: the four quadrant colours in turn, 100, 200, 50, 300 ms, three plays.
    tmp = os.path.join(HERE, "tmp-webp")
    os.makedirs(tmp, exist_ok=True)
    names = []
    for i, colour in enumerate(QUADRANT_RGB):
        names.append(os.path.join(tmp, f"{i}.png"))
        convert("-size", "64x48", f"xc:rgb{colour}", "-define", "png:color-type=2", names[-1])
    arguments = ["img2webp", "-loop", "3", "-lossless"]
    for name, delay in zip(names, (100, 200, 50, 300)):
        arguments += ["-d", str(delay), name]
    subprocess.run(arguments + ["-o", os.path.join(HERE, "frames.webp")], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    for name in names:
        os.remove(name)
    os.rmdir(tmp)


if __name__ == "__main__":
    write_pngs()
    write_jpegs()
    write_odd_jpegs()
    write_hostile_pngs()
    write_colour_fixtures()
    write_heif_fixtures()
    write_tiff_fixtures()
    write_jxl_fixtures()
    write_svg_fixtures()
    write_raw_fixtures()
    write_animation_fixtures()
