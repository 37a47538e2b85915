package jwt

// Why a token is refused when the reason is not jwx's to see: an
// unsecured JWT, an encrypted one, or a payload that is no claims set,
// which Spring's NimbusJwtDecoder tells apart before it looks for a key.
// Each is looked at only once a token has been refused (or, for an
// encrypted one, has five parts), so a good token pays nothing for them.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"

	jwxjwt "github.com/lestrrat-go/jwx/v3/jwt"
)

// Spring's and Nimbus's words.
const (
	// unsupportedNone is what Spring's decoder says of an unsecured JWT
	// (alg none, no signature), as it is, without its "An error occurred
	// while attempting to decode the Jwt: ".
	unsupportedNone = "Unsupported algorithm of none"
	// encryptedRefused is Nimbus's refusal of an encrypted JWT (JWE) when
	// no decryption key is configured, as Spring Boot configures none.
	encryptedRefused = "Encrypted JWT rejected: No JWE key selector is configured"
	// malformedPayload is Spring's word for a JWS whose payload is no
	// claims set: Nimbus reads the claims before it looks for a key, so
	// this comes before any failure of the signature.
	malformedPayload = "Malformed payload"
	malformedToken   = "Malformed token"
)

// verbatimError is a refusal that Spring's decoder words without its "An
// error occurred while attempting to decode the Jwt: ".
type verbatimError string

func (e verbatimError) Error() string { return string(e) }

// joseHeader decodes the protected header of a compact JOSE object: its
// members, or false when it is not a base64url JSON object, which Nimbus
// refuses as a malformed token.
func joseHeader(token string) (map[string]any, bool) {
	encoded, _, _ := strings.Cut(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil {
		return nil, false
	}
	var members map[string]any
	if json.Unmarshal(raw, &members) != nil || members == nil {
		return nil, false
	}
	return members, true
}

// fivePartRefusal is why a token of five parts is refused: an encrypted
// JWT, when its header names a key management algorithm (alg) and a
// content encryption (enc), as Nimbus parses one; else malformed.
func fivePartRefusal(token string) string {
	if strings.Count(token, ".") != 4 {
		return malformedToken
	}
	h, ok := joseHeader(token)
	if !ok {
		return malformedToken
	}
	alg, _ := h["alg"].(string)
	enc, _ := h["enc"].(string)
	if alg == "" || alg == "none" || enc == "" {
		return malformedToken
	}
	return encryptedRefused
}

// refusedBeforeKeys is why Spring's decoder refuses token (a compact JWS
// of three parts that jwx refused) before it looks for a key, or nil: an
// unsecured JWT (alg none, with the empty signature such a token has; one
// with a signature is malformed), or a payload that is no claims set (not
// base64url JSON, or a registered claim of the wrong type: exp a string,
// say). A header that does not parse is left to the caller, as malformed.
func refusedBeforeKeys(token string) error {
	h, ok := joseHeader(token)
	if !ok {
		return nil
	}
	if alg, _ := h["alg"].(string); alg == "none" {
		if strings.HasSuffix(token, ".") {
			return verbatimError(unsupportedNone)
		}
		return decodeFailure(malformedToken)
	}
	_, rest, _ := strings.Cut(token, ".")
	encoded, _, _ := strings.Cut(rest, ".")
	payload, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil || !bytes.HasPrefix(bytes.TrimLeft(payload, " \t\r\n"), []byte("{")) || json.Unmarshal(payload, jwxjwt.New()) != nil {
		return decodeFailure(malformedPayload)
	}
	return nil
}
