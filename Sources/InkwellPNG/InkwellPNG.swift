// InkwellPNG: PNG files in and out, through the system libpng.
//
// libpng signals errors by longjmp, which Swift frames cannot survive, so every libpng call goes
// through the CInkwellPNG shim, which catches them with setjmp and returns a status code and a
// one-line message. This module turns those into `PNGError` values and owns the buffers.
//
// Encoding is row-streamed underneath: `PNGStreamEncoder` accepts bands of rows, so a renderer
// can encode while it resolves instead of holding a second copy of the image; `PNGEncoder`
// encodes a whole image in one call. Rows arrive as RGBA (the renderer's layout); an opaque image
// can drop the fourth sample and be written as RGB, which makes files about a quarter smaller.
// 16-bit output exists for HDR and takes native-endian `UInt16` samples.
//
// Decoding (`PNGImage`, `PNGImage16`) exists for golden tests and returns the stored samples:
// no gamma or color-space conversion, so what was encoded is what comes back, bit for bit.
//
// The module does not use Foundation.

import CInkwellPNG

/// The longest libpng message we keep; longer ones are truncated.
let shimMessageCapacity = 256

/// Calls a shim function with a message buffer and returns its status and message.
func callShim(
  _ body: (UnsafeMutablePointer<CChar>, Int) -> inkwell_png_status
) -> (status: inkwell_png_status, message: String) {
  withUnsafeTemporaryAllocation(of: CChar.self, capacity: shimMessageCapacity) { buffer in
    buffer.initialize(repeating: 0)
    let status = body(buffer.baseAddress!, shimMessageCapacity)
    buffer[shimMessageCapacity - 1] = 0
    return (status, String(cString: buffer.baseAddress!))
  }
}

/// The byte order of native `UInt16` samples, as the shim names it.
var nativeByteOrder: inkwell_png_byte_order {
  #if _endian(little)
    return INKWELL_PNG_LITTLE_ENDIAN
  #else
    return INKWELL_PNG_BIG_ENDIAN
  #endif
}

/// `Array.withUnsafeBytes` for bodies that throw `PNGError` (the standard one only rethrows).
func withRawBytes<Element, Result>(
  of array: [Element], _ body: (UnsafeRawBufferPointer) throws(PNGError) -> Result
) throws(PNGError) -> Result {
  try array.withUnsafeBytes { bytes in
    Swift.Result { () throws(PNGError) -> Result in try body(bytes) }
  }.get()
}
