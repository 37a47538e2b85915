package ssl

// The aliases of a PKCS#12 key store's private keys: each key bag's
// friendlyName, which keytool writes as the entry's alias and openssl
// pkcs12 -export -name as the name given. go-pkcs12 decodes the keys but
// does not say their names; keytool and OpenSSL keep the key bags in a
// SafeContents that is not encrypted (the keys are, each on its own), so
// their attributes can be read without the password.

import (
	"encoding/asn1"
	"unicode/utf16"
)

var (
	oidDataContent    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidShroudedKeyBag = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 2}
	oidKeyBag         = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 1}
	oidFriendlyName   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 20}
)

type pfx struct {
	Version  int
	AuthSafe contentInfo
	MacData  asn1.RawValue `asn1:"optional"`
}

type contentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"tag:0,explicit,optional"`
}

type safeBag struct {
	ID         asn1.ObjectIdentifier
	Value      asn1.RawValue  `asn1:"tag:0,explicit"`
	Attributes []bagAttribute `asn1:"set,optional"`
}

type bagAttribute struct {
	ID     asn1.ObjectIdentifier
	Values asn1.RawValue `asn1:"set"`
}

// keyBag is a private key's bag as seen without the password: its name,
// when it has one.
type keyBag struct {
	name  string
	named bool
}

// pkcs12KeyBags returns the key bags of a PKCS#12 file that can be seen
// without its password. A key in an encrypted SafeContents is not seen.
func pkcs12KeyBags(data []byte) []keyBag {
	var p pfx
	if _, err := asn1.Unmarshal(data, &p); err != nil || !p.AuthSafe.ContentType.Equal(oidDataContent) {
		return nil
	}
	var authSafe []byte
	if _, err := asn1.Unmarshal(p.AuthSafe.Content.Bytes, &authSafe); err != nil {
		return nil
	}
	var infos []contentInfo
	if _, err := asn1.Unmarshal(authSafe, &infos); err != nil {
		return nil
	}
	var bags []keyBag
	for _, ci := range infos {
		if !ci.ContentType.Equal(oidDataContent) {
			continue // encrypted: its bags are not seen
		}
		var contents []byte
		if _, err := asn1.Unmarshal(ci.Content.Bytes, &contents); err != nil {
			continue
		}
		var safe []safeBag
		if _, err := asn1.Unmarshal(contents, &safe); err != nil {
			continue
		}
		for _, bag := range safe {
			if !bag.ID.Equal(oidShroudedKeyBag) && !bag.ID.Equal(oidKeyBag) {
				continue
			}
			kb := keyBag{}
			for _, a := range bag.Attributes {
				if !a.ID.Equal(oidFriendlyName) {
					continue
				}
				var name asn1.RawValue
				if _, err := asn1.Unmarshal(a.Values.Bytes, &name); err == nil && name.Tag == asn1.TagBMPString {
					kb.name, kb.named = decodeBMP(name.Bytes), true
				}
			}
			bags = append(bags, kb)
		}
	}
	return bags
}

// decodeBMP decodes a BMPString (UTF-16, big-endian).
func decodeBMP(b []byte) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	return string(utf16.Decode(u))
}
