// inkwell: the command-line front end. Each subcommand lives in its own file.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: inkwell <command> [options]

  commands:
    render INPUT -o OUTPUT.png [--size WxH | --scale S] [--region X,Y,W,H]
                 [--background COLOR | transparent] [--threads N] [--max-pixels N]
                 [--png-effort 1-9] [--from FORMAT] [--ink TYPE [--color COLOR] [--width W]]
                 [--format png8|png16|png-pq|png-hlg|exr|exr-float] (.exr output implies exr)
                 [--color-space srgb|p3] [--headroom H] [--tone-map clip|reinhard|bt2390]
                 [--color COLOR [--exposure E]] [--max-exposure E] [--appearance light|dark]
                 [--dither ordered|none]
    thumbnail INPUT... -o DIR [--list FILE] [--size WxH] [--threads N] [--skip-existing]
              [--relative-to ROOT] [--report FILE] [--background COLOR | transparent]
              [--from FORMAT] [--png-effort 1-9] [--max-pixels N] [--max-bytes N]
              [--dither ordered|none]
              (DIR/NAME.png for each INPUT; with --relative-to, DIR/PATH/NAME.png for
              ROOT/PATH/NAME; --list reads paths a line each, '-' from stdin)
    convert INPUT OUTPUT [--from FORMAT] [--to json|binary]
    info DOC [--from FORMAT] [--json]
    inks -o SHEET.png [--scale S] [--scenes DIR]
    help

  inks: pen, pencil, marker, monoline, fountainPen, watercolor, crayon, reed
  formats: native (.inkwell.json JSON, .inkwell binary), mypaint (.dat), svc (.svc), signal-json,
    inkml (.inkml), xopp (.xopp, .xoj), myscript, perfect-freehand, google-ink (.binarypb), rnote (.rnote)

  '-' as INPUT reads standard input; '-' as OUTPUT writes standard output.
  """

/// A command-line failure: printed as one line, exit status 1 (2 for usage errors).
struct CommandError: Error {
  var message: String
  var status: Int32 = 1
}

func fail(_ message: String, status: Int32 = 1) -> Never {
  var stderr = StandardError()
  print("inkwell: \(message)", to: &stderr)
  exit(status)
}

struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    var text = string
    text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
  }
}

// A closed pipe on standard output is reported as an error (EPIPE) rather than killing the process.
signal(SIGPIPE, SIG_IGN)

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
  var stderr = StandardError()
  print(usage, to: &stderr)
  exit(2)
}
arguments.removeFirst()

do {
  switch command {
  case "render": try RenderCommand.run(arguments)
  case "thumbnail": try ThumbnailCommand.run(arguments)
  case "convert": try ConvertCommand.run(arguments)
  case "info": try InfoCommand.run(arguments)
  case "inks": try InksCommand.run(arguments)
  case "help", "-h", "--help": print(usage)
  default: throw CommandError(message: "unknown command '\(command)'\n\(usage)", status: 2)
  }
} catch let error as CommandError {
  fail(error.message, status: error.status)
} catch {
  fail("\(error)")
}
