package jwt

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// RFC 7515 §4.1.11: a JWS whose crit header names an extension the
// recipient does not understand must be refused; jwx ignores crit when
// its caller hands it keys through a key provider, as verify does. This
// package understands no extension, so a token whose protected header
// has crit at all is refused, as Nimbus (under Spring) refuses one whose
// crit it was not told to defer: that covers an unknown name (["foo"]), a
// registered one (["alg"], ["exp"]), a name the header lacks, and the
// empty list, which RFC 7515 forbids producers to send.
//
// b64 (RFC 7797, an unencoded payload) is refused too when it is false,
// whether crit names it or not: a JWT's payload is base64url (RFC 7519
// §7.2), and jwx would otherwise check a signature over the raw payload.
// "b64": true is the default encoding spelled out, and is accepted.

// Why a token's header is refused, in Nimbus's words after Spring's "An
// error occurred while attempting to decode the Jwt: ". Nimbus refuses a
// crit it does not understand in its verifier, as a bad signature; a crit
// that is not a list of strings fails its header's parsing.
const (
	critRefused   = "Signed JWT rejected: Invalid signature"
	critMalformed = "Malformed token"
)

// headerRefusal says why the protected header of token (a compact JWS, of
// three parts) is refused, or "" when it is not. It decodes the header a
// second time (jwx decodes it too), so that crit is seen however the
// header spells it, and is quick about headers that cannot hold crit or
// b64: those with neither name nor any escape, which is nearly all.
func headerRefusal(token string) string {
	encoded, _, _ := strings.Cut(token, ".")
	var buf [512]byte
	header := buf[:0]
	if base64.RawURLEncoding.DecodedLen(len(encoded)) > len(buf) {
		header = nil
	}
	header, err := base64.RawURLEncoding.AppendDecode(header, []byte(encoded))
	if err != nil {
		return "" // jwx refuses it as malformed
	}
	if !bytes.Contains(header, []byte("crit")) && !bytes.Contains(header, []byte("b64")) && bytes.IndexByte(header, '\\') < 0 {
		return ""
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(header, &members) != nil {
		return "" // jwx refuses it as malformed
	}
	if crit, ok := members["crit"]; ok {
		var names []string
		if json.Unmarshal(crit, &names) != nil || names == nil {
			return critMalformed // null, a string, a list of numbers...
		}
		return critRefused
	}
	if b64, ok := members["b64"]; ok && string(b64) == "false" {
		return critRefused
	}
	return ""
}
