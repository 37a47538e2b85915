// Package ssl reads what Spring Boot's org.springframework.boot.ssl
// reads: SSL bundles, a named set of PEM files (app.ssl.bundle.pem.<name>.*)
// that a setting names (app.data.redis.ssl.bundle=<name>) instead of
// repeating the paths, and the PEM files that TLS settings name. Every
// subsystem that speaks TLS (the server, the Redis client) binds its files
// through it, so that a file that cannot be read is refused the same way,
// with the setting that names it.
package ssl

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// PEMBundles is the prefix of the PEM bundles' settings.
const PEMBundles = "app.ssl.bundle.pem."

// BindPEMClient reads the PEM bundle name, which the setting key names,
// into a TLS client configuration: truststore.certificate is the CA (or
// CAs) the server's certificate must be signed by (the system's when
// unset), keystore.certificate and keystore.private-key the client's own
// certificate, for servers that ask for one. Each is a file path, as
// file:path too. A bundle that is not declared, or a file that cannot be
// read or holds no usable PEM, is refused with the setting that names it;
// nil is returned then.
func BindPEMClient(b *config.Binder, key, name string) *tls.Config {
	prefix := PEMBundles + name + "."
	trust := config.Bind(b, prefix+"truststore.certificate", "", config.String, "a file of the PEM SSL bundle "+name+".truststore.certificate")
	cert := config.Bind(b, prefix+"keystore.certificate", "", config.String, "a file of the PEM SSL bundle "+name+".keystore.certificate")
	privateKey := config.Bind(b, prefix+"keystore.private-key", "", config.String, "a file of the PEM SSL bundle "+name+".keystore.private-key")
	if trust == "" && cert == "" && privateKey == "" {
		b.Refuse(key, "no SSL bundle "+name+" is declared: set "+prefix+"truststore.certificate (the CA), and for a client certificate "+prefix+"keystore.certificate and "+prefix+"keystore.private-key")
		return nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	ok := true
	if trust != "" {
		if pem, read := ReadPEMFile(b, prefix+"truststore.certificate", trust); !read {
			ok = false
		} else {
			cfg.RootCAs = x509.NewCertPool()
			if !cfg.RootCAs.AppendCertsFromPEM(pem) {
				b.Refuse(prefix+"truststore.certificate", "the file holds no PEM certificate")
				ok = false
			}
		}
	}
	switch {
	case cert == "" && privateKey == "":
	case cert == "":
		b.Refuse(prefix+"keystore.private-key", "a private key needs its certificate: set "+prefix+"keystore.certificate")
		ok = false
	case privateKey == "":
		b.Refuse(prefix+"keystore.certificate", "a client certificate needs its private key: set "+prefix+"keystore.private-key")
		ok = false
	default:
		certPEM, certRead := ReadPEMFile(b, prefix+"keystore.certificate", cert)
		keyPEM, keyRead := ReadPEMFile(b, prefix+"keystore.private-key", privateKey)
		if !certRead || !keyRead {
			ok = false
			break
		}
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			b.Refuse(prefix+"keystore.certificate", "with "+prefix+"keystore.private-key: "+err.Error())
			ok = false
			break
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	if !ok {
		return nil
	}
	return cfg
}

// ReadPEMFile reads the file that the setting key names, and refuses the
// setting when it cannot. The reason does not repeat the path: the value
// shown beside it does, unless the key is one whose values are masked.
func ReadPEMFile(b *config.Binder, key, path string) ([]byte, bool) {
	if strings.HasPrefix(path, "classpath:") {
		b.Refuse(key, "a Go service has no class path: give a file path")
		return nil, false
	}
	data, err := os.ReadFile(strings.TrimPrefix(path, "file:"))
	if err != nil {
		if pathErr, ok := errors.AsType[*fs.PathError](err); ok {
			err = pathErr.Err
		}
		b.Refuse(key, "cannot read the file: "+err.Error())
		return nil, false
	}
	return data, true
}
