package flyway

import (
	"bytes"
	"errors"
	"hash/crc32"
	"unicode/utf8"
)

// bom is U+FEFF as UTF-8.
var bom = []byte{0xEF, 0xBB, 0xBF}

// errNotUTF8 is the checksum's refusal of a file that is not UTF-8:
// Flyway decodes a migration with a decoder that reports malformed input
// (Charset.newDecoder()), and its checksum fails then too.
var errNotUTF8 = errors.New("it is not UTF-8 (Flyway's default encoding), so Flyway could not read it either")

// Checksum returns Flyway's checksum of a migration's content, as it
// records it in the schema history's checksum column.
//
// Flyway (ChecksumCalculator in flyway-core, the same from Flyway 9 to
// 12) reads the file as UTF-8 through a BufferedReader, drops a byte
// order mark from the first line (BomFilter), and feeds each line's UTF-8
// bytes, without its terminator, to a java.util.zip.CRC32, whose value
// it casts to a Java int. readLine ends a line at \n, \r or \r\n and
// drops the terminator, and an empty line adds nothing to a CRC, so the
// checksum is the CRC-32 (IEEE) of the content without its leading BOM
// and without any \r or \n, as a signed 32-bit integer: the same for a
// file with LF or CRLF line ends, with or without a BOM or a final
// newline.
func Checksum(content []byte) (int32, error) {
	if !utf8.Valid(content) {
		return 0, errNotUTF8
	}
	content = bytes.TrimPrefix(content, bom)
	h := crc32.NewIEEE()
	for len(content) > 0 {
		i := bytes.IndexAny(content, "\r\n")
		if i < 0 {
			h.Write(content)
			break
		}
		h.Write(content[:i])
		content = content[i+1:]
	}
	return int32(h.Sum32()), nil
}
