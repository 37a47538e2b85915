package testpki

// Key stores and trust stores as Spring users have them: PKCS#12 as
// keytool 17 and OpenSSL 3 write it by default (PBES2 with AES-256-CBC,
// HMAC-SHA256), PKCS#12 in OpenSSL's -legacy form (RC2 and 3DES, SHA-1),
// and JKS. Where keytool or openssl is installed the tool writes the
// store, as a user's would be; where it is not, go-pkcs12 or keystore-go
// writes the same format, so that the tests run everywhere.

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/asn1"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	jks "github.com/pavlo-v-chernykh/keystore-go/v4"
	"software.sslmate.com/src/go-pkcs12"
)

// A Store is a store file written for a test.
type Store struct {
	Path string
	// Trust is what a client trusts to accept the certificate of a key
	// store: the CA that signed it, or the certificate itself when the
	// tool made it self-signed.
	Trust *x509.CertPool
	// Cert is the certificate of a key store's key.
	Cert *x509.Certificate
	// Alias is the alias of a key store's key as Java reads it: the
	// name given, or 1 for a key without a name (go-pkcs12 writes none).
	Alias string
	// By says what wrote it: "keytool", "openssl" or the library.
	By string
}

// Tool returns the path of a command-line tool, or "" when it is not
// installed.
func Tool(name string) string {
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return path
}

// run runs a tool; its output is shown when it fails.
func run(t testing.TB, name string, args ...string) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// pair parses a certificate and key in PEM.
func pair(t testing.TB, certPEM, keyPEM []byte) (any, *x509.Certificate) {
	t.Helper()
	p, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return p.PrivateKey, p.Leaf
}

// PKCS12 writes a server certificate signed by ca, and its key, into a
// PKCS#12 file of password under dir, the key named alias: with openssl
// pkcs12 -export (OpenSSL 3's default format, or its -legacy one) when
// openssl is installed, else with go-pkcs12's Modern2023 or LegacyDES
// encoder, which write the same algorithms.
func (ca *CA) PKCS12(t testing.TB, dir, name, password, alias string, legacy bool) Store {
	t.Helper()
	certPEM, keyPEM := ca.Server(t, alias)
	key, cert := pair(t, certPEM, keyPEM)
	path := filepath.Join(dir, name)
	s := Store{Path: path, Trust: ca.Pool(), Cert: cert, Alias: alias}
	if Tool("openssl") != "" {
		certFile := WriteFile(t, dir, name+".crt", certPEM)
		keyFile := WriteFile(t, dir, name+".key", keyPEM)
		args := []string{"pkcs12", "-export", "-in", certFile, "-inkey", keyFile, "-name", alias, "-passout", "pass:" + password, "-out", path}
		if legacy {
			args = append(args, "-legacy")
		}
		run(t, "openssl", args...)
		s.By = "openssl"
		return s
	}
	enc := pkcs12.Modern2023
	if legacy {
		enc = pkcs12.LegacyDES
	}
	data, err := enc.Encode(key, cert, nil, password)
	if err != nil {
		t.Fatal(err)
	}
	writeStore(t, path, data)
	s.By, s.Alias = "go-pkcs12", "1"
	return s
}

// KeytoolPKCS12 writes a PKCS#12 key store as a Spring user makes one,
// keytool -genkeypair -storetype PKCS12: a self-signed certificate for
// 127.0.0.1, named alias. Without keytool, go-pkcs12 writes a store of a
// certificate from ca in keytool 17's format.
func (ca *CA) KeytoolPKCS12(t testing.TB, dir, name, password, alias string) Store {
	t.Helper()
	path := filepath.Join(dir, name)
	if Tool("keytool") == "" {
		return ca.EncodePKCS12(t, dir, name, password, alias, false)
	}
	run(t, "keytool", "-genkeypair", "-storetype", "PKCS12", "-keystore", path, "-storepass", password,
		"-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN="+alias,
		"-ext", "san=ip:127.0.0.1", "-validity", "2", "-noprompt")
	pemPath := path + ".crt"
	run(t, "keytool", "-exportcert", "-rfc", "-keystore", path, "-storepass", password, "-alias", alias, "-file", pemPath)
	data, err := os.ReadFile(pemPath)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		t.Fatalf("keytool -exportcert wrote no PEM: %q", data)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return Store{Path: path, Trust: pool, Cert: cert, Alias: alias, By: "keytool"}
}

// JKS writes a server certificate signed by ca, and its key, into a JKS
// key store of password under dir, the key named alias and protected by
// keyPassword (password when empty): with keytool -importkeystore from
// an OpenSSL PKCS#12 file when both are installed, else with keystore-go.
func (ca *CA) JKS(t testing.TB, dir, name, password, alias, keyPassword string) Store {
	t.Helper()
	if keyPassword == "" {
		keyPassword = password
	}
	path := filepath.Join(dir, name)
	if Tool("keytool") != "" && Tool("openssl") != "" {
		p12 := ca.PKCS12(t, dir, name+".p12", password, alias, false)
		run(t, "keytool", "-importkeystore", "-srckeystore", p12.Path, "-srcstoretype", "PKCS12", "-srcstorepass", password,
			"-srcalias", alias, "-srckeypass", password, "-destalias", alias,
			"-destkeystore", path, "-deststoretype", "JKS", "-deststorepass", password, "-destkeypass", keyPassword, "-noprompt")
		return Store{Path: path, Trust: ca.Pool(), Cert: p12.Cert, Alias: alias, By: "keytool"}
	}
	certPEM, keyPEM := ca.Server(t, alias)
	_, cert := pair(t, certPEM, keyPEM)
	ks := jks.New()
	ca.addKey(t, ks, alias, certPEM, keyPEM, keyPassword)
	writeJKS(t, ks, path, password)
	return Store{Path: path, Trust: ca.Pool(), Cert: cert, Alias: alias, By: "keystore-go"}
}

// JKSEntries writes a JKS store with keystore-go: a key signed by ca for
// each of keyAliases (each protected by password), and ca's certificate
// as a trusted entry for each of trustedAliases.
func (ca *CA) JKSEntries(t testing.TB, dir, name, password string, keyAliases, trustedAliases []string) Store {
	t.Helper()
	ks := jks.New()
	var cert *x509.Certificate
	for _, alias := range keyAliases {
		certPEM, keyPEM := ca.Server(t, alias)
		_, cert = pair(t, certPEM, keyPEM)
		ca.addKey(t, ks, alias, certPEM, keyPEM, password)
	}
	for _, alias := range trustedAliases {
		if err := ks.SetTrustedCertificateEntry(alias, jks.TrustedCertificateEntry{CreationTime: time.Now(),
			Certificate: jks.Certificate{Type: "X509", Content: ca.Cert.Raw}}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, name)
	writeJKS(t, ks, path, password)
	return Store{Path: path, Trust: ca.Pool(), Cert: cert, By: "keystore-go"}
}

func (ca *CA) addKey(t testing.TB, ks jks.KeyStore, alias string, certPEM, keyPEM []byte, keyPassword string) {
	t.Helper()
	block, _ := pem.Decode(keyPEM)
	certBlock, _ := pem.Decode(certPEM)
	err := ks.SetPrivateKeyEntry(alias, jks.PrivateKeyEntry{CreationTime: time.Now(), PrivateKey: block.Bytes,
		CertificateChain: []jks.Certificate{{Type: "X509", Content: certBlock.Bytes}, {Type: "X509", Content: ca.Cert.Raw}}},
		[]byte(keyPassword))
	if err != nil {
		t.Fatal(err)
	}
}

func writeJKS(t testing.TB, ks jks.KeyStore, path, password string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := ks.Store(f, []byte(password)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TrustStore writes ca's certificate into a trust store of password: a
// PKCS#12 one (format "PKCS12") with keytool -importcert, or go-pkcs12
// without keytool; a JKS one (format "JKS") with keytool, or
// keystore-go.
func (ca *CA) TrustStore(t testing.TB, dir, name, password, format string) Store {
	t.Helper()
	path := filepath.Join(dir, name)
	s := Store{Path: path, Trust: ca.Pool(), Cert: ca.Cert}
	if Tool("keytool") != "" {
		caFile := WriteFile(t, dir, name+".ca.crt", ca.PEM)
		run(t, "keytool", "-importcert", "-storetype", format, "-keystore", path, "-storepass", password,
			"-alias", "ca", "-file", caFile, "-noprompt")
		s.By = "keytool"
		return s
	}
	if format == "JKS" {
		ks := jks.New()
		if err := ks.SetTrustedCertificateEntry("ca", jks.TrustedCertificateEntry{CreationTime: time.Now(),
			Certificate: jks.Certificate{Type: "X509", Content: ca.Cert.Raw}}); err != nil {
			t.Fatal(err)
		}
		writeJKS(t, ks, path, password)
		s.By = "keystore-go"
		return s
	}
	data, err := pkcs12.Modern2023.EncodeTrustStore([]*x509.Certificate{ca.Cert}, password)
	if err != nil {
		t.Fatal(err)
	}
	writeStore(t, path, data)
	s.By = "go-pkcs12"
	return s
}

// EncodePKCS12 writes a PKCS#12 key store with go-pkcs12 whatever is
// installed: Modern2023 (PBES2, AES-256-CBC, HMAC-SHA256) or, legacy,
// LegacyRC2 (RC2-40 certificates, 3DES key, SHA-1 MAC).
func (ca *CA) EncodePKCS12(t testing.TB, dir, name, password, alias string, legacy bool) Store {
	t.Helper()
	certPEM, keyPEM := ca.Server(t, alias)
	key, cert := pair(t, certPEM, keyPEM)
	enc := pkcs12.Modern2023
	if legacy {
		enc = pkcs12.LegacyRC2
	}
	data, err := enc.WithRand(rand.Reader).Encode(key, cert, []*x509.Certificate{ca.Cert}, password)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	writeStore(t, path, data)
	return Store{Path: path, Trust: ca.Pool(), Cert: cert, Alias: "1", By: "go-pkcs12"}
}

// writeStore writes a store's bytes, readable by its owner only, in
// place: through a temporary file renamed over it, so that a server that
// reads it again never sees it half written.
func writeStore(t testing.TB, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// EncryptedKey returns keyPEM, a PKCS#8 key, encrypted with password as
// an ENCRYPTED PRIVATE KEY: by openssl pkcs8 -topk8 -v2 aes-256-cbc
// (PBES2, PBKDF2 with HMAC-SHA256, AES-256-CBC) when openssl is
// installed, else by the same algorithms here.
func EncryptedKey(t testing.TB, dir string, keyPEM []byte, password string) []byte {
	t.Helper()
	if Tool("openssl") != "" {
		in := WriteFile(t, dir, "plain.key", keyPEM)
		out := filepath.Join(dir, "encrypted.key")
		run(t, "openssl", "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", in, "-out", out, "-passout", "pass:"+password)
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	block, _ := pem.Decode(keyPEM)
	salt, iv := make([]byte, 16), make([]byte, aes.BlockSize)
	if _, err := rand.Read(salt); err != nil {
		t.Fatal(err)
	}
	if _, err := rand.Read(iv); err != nil {
		t.Fatal(err)
	}
	const iterations = 2048
	key, err := pbkdf2.Key(sha256.New, password, salt, iterations, 32)
	if err != nil {
		t.Fatal(err)
	}
	c, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	pad := aes.BlockSize - len(block.Bytes)%aes.BlockSize
	plain := append(bytes.Clone(block.Bytes), bytes.Repeat([]byte{byte(pad)}, pad)...)
	encrypted := make([]byte, len(plain))
	cipher.NewCBCEncrypter(c, iv).CryptBlocks(encrypted, plain)
	type algorithm struct {
		OID    asn1.ObjectIdentifier
		Params asn1.RawValue `asn1:"optional"`
	}
	raw := func(v any) asn1.RawValue {
		der, err := asn1.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return asn1.RawValue{FullBytes: der}
	}
	kdf := raw(struct {
		Salt       []byte
		Iterations int
		PRF        algorithm
	}{salt, iterations, algorithm{OID: asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 9}, Params: asn1.NullRawValue}})
	params := raw(struct{ KDF, Cipher algorithm }{
		algorithm{OID: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}, Params: kdf},
		algorithm{OID: asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}, Params: raw(iv)}})
	der, err := asn1.Marshal(struct {
		Algorithm algorithm
		Data      []byte
	}{algorithm{OID: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}, Params: params}, encrypted})
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: der})
}
