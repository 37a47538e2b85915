package ssl

// Encrypted PKCS#8 private keys (RFC 5958's EncryptedPrivateKeyInfo), as
// OpenSSL 3 writes them (openssl pkcs8 -topk8, openssl genpkey -aes256):
// PBES2 (RFC 8018) with PBKDF2 over HMAC-SHA1 or SHA-2, and AES-CBC or
// 3DES-CBC. The older PBES1 schemes are not read.

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"hash"
)

var (
	oidPBES2      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}
	oidPBKDF2     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}
	oidHMACSHA1   = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 7}
	oidHMACSHA224 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 8}
	oidHMACSHA256 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 9}
	oidHMACSHA384 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 10}
	oidHMACSHA512 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 11}
	oidAES128CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 2}
	oidAES192CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 22}
	oidAES256CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}
	oidDESEDE3CBC = asn1.ObjectIdentifier{1, 2, 840, 113549, 3, 7}
)

// errWrongPassword is a key that does not decrypt with the password
// given.
var errWrongPassword = errors.New("wrong password")

type encryptedPrivateKeyInfo struct {
	Algorithm     pkix.AlgorithmIdentifier
	EncryptedData []byte
}

type pbes2Params struct {
	KeyDerivationFunc pkix.AlgorithmIdentifier
	EncryptionScheme  pkix.AlgorithmIdentifier
}

type pbkdf2Params struct {
	Salt           []byte
	IterationCount int
	KeyLength      int                      `asn1:"optional"`
	PRF            pkix.AlgorithmIdentifier `asn1:"optional"`
}

// decryptPKCS8 returns the PKCS#8 private key that der, an
// EncryptedPrivateKeyInfo, holds encrypted with password.
func decryptPKCS8(der []byte, password string) ([]byte, error) {
	var info encryptedPrivateKeyInfo
	if _, err := asn1.Unmarshal(der, &info); err != nil {
		return nil, errors.New("not an encrypted PKCS#8 key: " + err.Error())
	}
	if !info.Algorithm.Algorithm.Equal(oidPBES2) {
		return nil, errors.New("encrypted with " + info.Algorithm.Algorithm.String() + ", not PBES2: convert it (openssl pkcs8 -topk8 -v2 aes-256-cbc)")
	}
	var params pbes2Params
	if _, err := asn1.Unmarshal(info.Algorithm.Parameters.FullBytes, &params); err != nil {
		return nil, errors.New("malformed PBES2 parameters: " + err.Error())
	}
	if !params.KeyDerivationFunc.Algorithm.Equal(oidPBKDF2) {
		return nil, errors.New("the key is derived with " + params.KeyDerivationFunc.Algorithm.String() + ", not PBKDF2")
	}
	var kdf pbkdf2Params
	if _, err := asn1.Unmarshal(params.KeyDerivationFunc.Parameters.FullBytes, &kdf); err != nil {
		return nil, errors.New("malformed PBKDF2 parameters: " + err.Error())
	}
	prf, err := prfHash(kdf.PRF.Algorithm)
	if err != nil {
		return nil, err
	}
	newCipher, keyLen, err := cbcCipher(params.EncryptionScheme.Algorithm)
	if err != nil {
		return nil, err
	}
	var iv []byte
	if _, err := asn1.Unmarshal(params.EncryptionScheme.Parameters.FullBytes, &iv); err != nil {
		return nil, errors.New("malformed cipher parameters: " + err.Error())
	}
	key, err := pbkdf2.Key(prf, password, kdf.Salt, kdf.IterationCount, keyLen)
	if err != nil {
		return nil, err
	}
	block, err := newCipher(key)
	if err != nil {
		return nil, err
	}
	data := info.EncryptedData
	if len(iv) != block.BlockSize() || len(data) == 0 || len(data)%block.BlockSize() != 0 {
		return nil, errors.New("malformed encrypted data")
	}
	plain := make([]byte, len(data))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(plain, data)
	// A wrong password gives bad padding, or, rarely, padding that
	// looks right over bytes that are no key.
	pad := int(plain[len(plain)-1])
	if pad == 0 || pad > block.BlockSize() {
		return nil, errWrongPassword
	}
	for _, b := range plain[len(plain)-pad:] {
		if int(b) != pad {
			return nil, errWrongPassword
		}
	}
	plain = plain[:len(plain)-pad]
	if _, err := x509.ParsePKCS8PrivateKey(plain); err != nil {
		return nil, errWrongPassword
	}
	return plain, nil
}

func prfHash(oid asn1.ObjectIdentifier) (func() hash.Hash, error) {
	switch {
	case len(oid) == 0, oid.Equal(oidHMACSHA1):
		return sha1.New, nil
	case oid.Equal(oidHMACSHA224):
		return sha256.New224, nil
	case oid.Equal(oidHMACSHA256):
		return sha256.New, nil
	case oid.Equal(oidHMACSHA384):
		return sha512.New384, nil
	case oid.Equal(oidHMACSHA512):
		return sha512.New, nil
	}
	return nil, errors.New("the key is derived with the PRF " + oid.String() + ", which is not read")
}

func cbcCipher(oid asn1.ObjectIdentifier) (func([]byte) (cipher.Block, error), int, error) {
	switch {
	case oid.Equal(oidAES128CBC):
		return aes.NewCipher, 16, nil
	case oid.Equal(oidAES192CBC):
		return aes.NewCipher, 24, nil
	case oid.Equal(oidAES256CBC):
		return aes.NewCipher, 32, nil
	case oid.Equal(oidDESEDE3CBC):
		return des.NewTripleDESCipher, 24, nil
	}
	return nil, 0, errors.New("the key is encrypted with " + oid.String() + ", which is not read (AES-CBC and 3DES-CBC are)")
}
