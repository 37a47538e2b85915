package server

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"runtime"
	"sync"
)

// A gzip stream whose compressor is never held while its client is
// waited on (issue 37). A flate.Writer is some 650KB whatever its level
// (its hash tables are arrays inside it), and compress/gzip writes
// through it to the response: a response whose client stops reading kept
// one for as long as it stalled, so 300 such clients held some 290MB.
// Here the handler's output is gathered into chunks of gzipChunk bytes;
// each chunk is compressed by one of a few shared flate.Writers
// (maxCompressors), Reset onto an output buffer, ending with a sync
// flush (or, for the last, a final block), and the writer is given back
// before the compressed bytes are written to the client. The chunks are byte-aligned runs of
// blocks of one deflate stream, none of them final but the last, so
// together they are a single valid stream; no match reaches back into an
// earlier chunk, which costs a little ratio (a window is 32KB anyway).
// The gzip header and trailer (CRC-32 and length) around that stream are
// written here, as compress/gzip writes them, since compress/gzip can
// only write through one writer. A stalled response so holds its
// compressed chunk (a few KB of text), not a compressor. A handler's
// Flush ends a chunk early; one that flushes often pays a writer's Reset
// (clearing its tables) for each piece.

// gzipChunk is how much of a response is compressed at a time: the
// deflate window, and the dispatcher's Stream pieces (32KB).
const gzipChunk = 32 << 10

// gzipHeader is the header compress/gzip writes with no name, comment or
// time, at the default level: magic, deflate, no flags, no time, no
// extra flags, OS unknown.
var gzipHeader = [10]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// finalEmptyBlock is a last deflate block with nothing in it (fixed
// Huffman codes, the end-of-block code alone), written where a stream
// ends on a byte boundary with no data left to compress.
var finalEmptyBlock = [2]byte{0x03, 0x00}

// maxCompressors is how many flate.Writers exist at most, each some
// 650KB, kept once made: a chunk is compressed without a pause, so more
// than one per core would only wait their turn. A sync.Pool does not
// bound them: under load the garbage collector empties it, and a
// compression paused by a collection's assist lets another allocate a
// writer of its own, so that hundreds of responses begun together made
// as many writers, and the process kept that memory.
var maxCompressors = min(runtime.GOMAXPROCS(0), 8)

var (
	// idleCompressors are the writers made and not in use; compressorsMade
	// has a token for each writer made.
	idleCompressors = make(chan *flate.Writer, maxCompressors)
	compressorsMade = make(chan struct{}, maxCompressors)
	// chunkBufs hold a chunk of a response's output until it is full,
	// flushed or ended, and a response's first bytes while compression
	// is decided.
	chunkBufs = sync.Pool{New: func() any {
		b := make([]byte, 0, gzipChunk)
		return &b
	}}
	// compressedBufs hold one compressed chunk while it is written.
	compressedBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

// takeCompressor is an idle flate.Writer, or a new one while fewer than
// maxCompressors are made; otherwise it waits for one: a writer is held
// only while a chunk is compressed, never while a client is written to.
func takeCompressor() *flate.Writer {
	select {
	case w := <-idleCompressors:
		return w
	default:
	}
	select {
	case w := <-idleCompressors:
		return w
	case compressorsMade <- struct{}{}:
		w, _ := flate.NewWriter(nil, flate.DefaultCompression)
		return w
	}
}

// getChunkBuf is an empty buffer of gzipChunk bytes' capacity.
func getChunkBuf() *[]byte { return chunkBufs.Get().(*[]byte) }

// putChunkBuf returns b to the pool, unless it grew past a chunk (a
// response held while min-response-size is over 32KB).
func putChunkBuf(b *[]byte) {
	if cap(*b) == gzipChunk {
		*b = (*b)[:0]
		chunkBufs.Put(b)
	}
}

// gzipStream writes one gzip member to w, a chunk at a time.
type gzipStream struct {
	w     io.Writer
	in    *[]byte // the chunk being gathered; nil while empty
	begun bool    // the header is written
	crc   uint32
	size  uint32 // the length, modulo 2^32, as the trailer has it
	err   error  // the first write to w that failed: nothing more is compressed
}

// Write gathers p, compressing and sending each chunk it fills. Whole
// chunks of p, when none is being gathered, are compressed from p
// itself, a piece of up to two chunks at once.
func (z *gzipStream) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && z.err == nil {
		if z.in == nil && len(p) >= gzipChunk {
			// The dispatcher's pieces are a little over 32KB: each is
			// compressed whole, uncopied, rather than leaving a
			// remainder to gather.
			k := len(p)
			if k >= 2*gzipChunk {
				k = gzipChunk
			}
			z.emit(p[:k], false)
			p = p[k:]
			continue
		}
		if z.in == nil {
			z.in = getChunkBuf()
		}
		k := min(len(p), gzipChunk-len(*z.in))
		*z.in = append(*z.in, p[:k]...)
		p = p[k:]
		if len(*z.in) == gzipChunk {
			z.emitGathered(false)
		}
	}
	if z.err != nil {
		return 0, z.err
	}
	return n, nil
}

// Flush compresses and sends what is gathered, ending on a byte
// boundary (a sync flush), so that a client can decompress all of it.
func (z *gzipStream) Flush() error {
	if z.in != nil && z.err == nil {
		z.emitGathered(false)
	}
	return z.err
}

// Close compresses what is gathered as the stream's last block, and
// sends it with the trailer.
func (z *gzipStream) Close() error {
	if z.err != nil {
		z.release()
		return z.err
	}
	if z.in != nil {
		z.emitGathered(true)
	} else {
		z.emit(nil, true)
	}
	return z.err
}

// release returns the gathered chunk's buffer, for a stream abandoned.
func (z *gzipStream) release() {
	if z.in != nil {
		putChunkBuf(z.in)
		z.in = nil
	}
}

// emitGathered sends the gathered chunk, and returns its buffer to the
// pool before the compressed bytes are written: a response that stalls
// there holds no more than those.
func (z *gzipStream) emitGathered(final bool) {
	in := z.in
	z.in = nil
	out := z.compress(*in, final)
	putChunkBuf(in)
	z.send(out)
}

// emit compresses chunk and sends it.
func (z *gzipStream) emit(chunk []byte, final bool) {
	z.send(z.compress(chunk, final))
}

// compress puts chunk, compressed, into a pooled output buffer: after
// the header if it is the first, before the trailer if it is the last.
func (z *gzipStream) compress(chunk []byte, final bool) *bytes.Buffer {
	out := compressedBufs.Get().(*bytes.Buffer)
	out.Reset()
	out.Grow(len(chunk)/2 + len(gzipHeader) + 8) // text compresses to under half: one allocation, not a doubling series
	if !z.begun {
		out.Write(gzipHeader[:])
		z.begun = true
	}
	switch {
	case len(chunk) > 0:
		z.crc = crc32.Update(z.crc, crc32.IEEETable, chunk)
		z.size += uint32(len(chunk))
		fw := takeCompressor()
		fw.Reset(out)
		fw.Write(chunk) // into a bytes.Buffer: no error
		if final {
			fw.Close()
		} else {
			fw.Flush()
		}
		idleCompressors <- fw // never full: it has room for every writer made
	case final:
		out.Write(finalEmptyBlock[:])
	}
	if final {
		var trailer [8]byte
		binary.LittleEndian.PutUint32(trailer[:4], z.crc)
		binary.LittleEndian.PutUint32(trailer[4:], z.size)
		out.Write(trailer[:])
	}
	return out
}

// send writes the compressed chunk to the client, and returns its
// buffer to the pool.
func (z *gzipStream) send(out *bytes.Buffer) {
	if _, err := z.w.Write(out.Bytes()); err != nil {
		z.err = err
	}
	compressedBufs.Put(out)
}
