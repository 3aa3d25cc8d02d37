import CJXL
import Pixels

/// JPEG XL through libjxl: the picture (the first frame of an animation) upright as its codestream
/// says, 8 bits a channel, with its alpha. A lossy (XYB) picture is asked for in sRGB, which the
/// decoder makes without a colour manager; a lossless one comes in its own profile, which lcms2 then
/// converts like any embedded profile. The decoder's threads share the picture's work.
enum JXLDecoder {
    static func matches(_ head: ArraySlice<UInt8>) -> Bool {
        head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
    }

    static func decode(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        try QuietStandardError.run { () throws(ImageDecodeError) -> DecoderOutput in try decodeQuietly(request) }
    }

    private static func decodeQuietly(_ request: DecodeRequest) throws(ImageDecodeError) -> DecoderOutput {
        var reason: UnsafePointer<CChar>?
        guard let jxl = photozoom_jxl_load(&reason)?.pointee, let threads = photozoom_jxl_threads_load(&reason)?.pointee else {
            throw .libraryMissing(format: "JPEG XL", reason: "libjxl (Debian: libjxl0.7) could not be opened: \(reason.map { String(cString: $0) } ?? "")")
        }
        let budget = UnsafeMutablePointer<photozoom_jxl_budget>.allocate(capacity: 1)
        defer { budget.deallocate() }
        budget.pointee.limit = max(4 * request.data.count, 64 << 20)
        var manager = JxlMemoryManager(opaque: budget, alloc: photozoom_jxl_alloc, free: photozoom_jxl_free)
        guard let decoder = jxl.JxlDecoderCreate(&manager) else { throw .corrupt(format: "JPEG XL", detail: "libjxl could not start") }
        defer { jxl.JxlDecoderDestroy(decoder) }
        let runner = threads.JxlThreadParallelRunnerCreate(nil, threads.JxlThreadParallelRunnerDefaultNumWorkerThreads())
        defer { if let runner { threads.JxlThreadParallelRunnerDestroy(runner) } }
        if let runner { _ = jxl.JxlDecoderSetParallelRunner(decoder, threads.JxlThreadParallelRunner, runner) }
        let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
        guard jxl.JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS else {
            throw .corrupt(format: "JPEG XL", detail: "libjxl refused its events")
        }
        return try request.data.withUnsafeBufferPointer { bytes in
            Result { () throws(ImageDecodeError) -> DecoderOutput in try run(jxl, decoder, bytes, budget) }
        }.get()
    }

    private static func run(_ jxl: photozoom_jxl, _ decoder: OpaquePointer, _ bytes: UnsafeBufferPointer<UInt8>,
                            _ budget: UnsafeMutablePointer<photozoom_jxl_budget>) throws(ImageDecodeError) -> DecoderOutput {
        _ = jxl.JxlDecoderSetInput(decoder, bytes.baseAddress, bytes.count)
        jxl.JxlDecoderCloseInput(decoder)
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var info = JxlBasicInfo()
        var size = (width: 0, height: 0)
        var colour = ColourDescription.sRGB
        var buffer: [UInt8] = []
        while true {
            switch jxl.JxlDecoderProcessInput(decoder) {
            case JXL_DEC_BASIC_INFO:
                guard jxl.JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else { throw .corrupt(format: "JPEG XL", detail: "a damaged header") }
                // The decoder turns the picture upright: orientations 5…8 swap its sides.
                size = info.orientation.rawValue >= 5 ? (Int(info.ysize), Int(info.xsize)) : (Int(info.xsize), Int(info.ysize))
                try ImageLimits.checkPixels(width: size.width, height: size.height)
                // Its planes: a few floats a channel a pixel.
                budget.pointee.limit = max(budget.pointee.limit, size.width * size.height * 16)
            case JXL_DEC_COLOR_ENCODING:
                var sRGB = JxlColorEncoding()
                jxl.JxlColorEncodingSetToSRGB(&sRGB, 0)
                _ = jxl.JxlDecoderSetPreferredColorProfile(decoder, &sRGB)
                colour = dataProfile(jxl, decoder, format: &format)
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var length = 0
                guard jxl.JxlDecoderImageOutBufferSize(decoder, &format, &length) == JXL_DEC_SUCCESS,
                      length == size.width * size.height * 4 else { throw .corrupt(format: "JPEG XL", detail: "an unexpected frame size") }
                buffer = [UInt8](repeating: 0, count: length)
                let status = buffer.withUnsafeMutableBytes { jxl.JxlDecoderSetImageOutBuffer(decoder, &format, $0.baseAddress, $0.count) }
                guard status == JXL_DEC_SUCCESS else { throw .corrupt(format: "JPEG XL", detail: "libjxl refused the output buffer") }
            case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                // The first frame (of an animation too) is the picture.
                guard !buffer.isEmpty else { throw .corrupt(format: "JPEG XL", detail: "no frame") }
                var rows = RGBARows(width: size.width, height: size.height, isOpaque: info.alpha_bits == 0)
                buffer.withUnsafeBufferPointer { b in
                    for y in 0..<size.height { rows.append(b.baseAddress! + y * size.width * 4, premultiplied: info.alpha_premultiplied != 0) }
                }
                return DecoderOutput(image: rows.finish(), fullSize: size, colour: colour)
            default:
                // The input is closed: a file cut short is an error too.
                throw .corrupt(format: "JPEG XL", detail: "the data is damaged or cut short")
            }
        }
    }

    /// The profile of the pixels the decoder gives: sRGB when it could make them so, otherwise the
    /// picture's own.
    private static func dataProfile(_ jxl: photozoom_jxl, _ decoder: OpaquePointer, format: inout JxlPixelFormat) -> ColourDescription {
        var length = 0
        guard jxl.JxlDecoderGetICCProfileSize(decoder, &format, JXL_COLOR_PROFILE_TARGET_DATA, &length) == JXL_DEC_SUCCESS,
              length > 0, length <= ICCProfile.maxBytes else { return .sRGB }
        var icc = [UInt8](repeating: 0, count: length)
        guard jxl.JxlDecoderGetColorAsICCProfile(decoder, &format, JXL_COLOR_PROFILE_TARGET_DATA, &icc, length) == JXL_DEC_SUCCESS else {
            return .sRGB
        }
        return .icc(icc)
    }
}
