package ssl

// What a served certificate chain says of itself, in the shape of Spring
// Boot's SslInfo (org.springframework.boot.info.SslInfo, 3.5), which its
// ssl health indicator, its info contributor and its ssl.chain.expiry
// gauge all read: a bundle's chains, each chain's certificates with
// their subject, issuer, serial number, version, signature algorithm and
// validity. Spring lists the chains of its SSL bundles' key stores; here
// every port's served chain is one, whether it comes from a bundle, PEM
// files or a key store.

import (
	"crypto/x509"
	"fmt"
	"strconv"
	"time"

	"github.com/springport/greeter/framework/config"
)

// Validity statuses of a certificate, as SslInfo's
// CertificateValidityInfo.Status names them.
const (
	Valid          = "VALID"
	NotYetValid    = "NOT_YET_VALID"
	Expired        = "EXPIRED"
	WillExpireSoon = "WILL_EXPIRE_SOON" // valid, but not for the warning threshold
)

// BundleInfo is one bundle's certificate chains.
type BundleInfo struct {
	Name              string      `json:"name"`
	CertificateChains []ChainInfo `json:"certificateChains"`
}

// ChainInfo is one chain: the alias of its key in its key store, and its
// certificates, the key's own first.
type ChainInfo struct {
	Alias        string            `json:"alias"`
	Certificates []CertificateInfo `json:"certificates"`
}

// CertificateInfo is one certificate as SslInfo.CertificateInfo shows
// it: the names in RFC 2253's form, the serial number in hexadecimal,
// the version as V3, the signature algorithm by Java's name.
type CertificateInfo struct {
	Subject                string       `json:"subject"`
	Issuer                 string       `json:"issuer"`
	SerialNumber           string       `json:"serialNumber"`
	Version                string       `json:"version"`
	SignatureAlgorithmName string       `json:"signatureAlgorithmName"`
	ValidityStarts         time.Time    `json:"validityStarts"`
	ValidityEnds           time.Time    `json:"validityEnds"`
	Validity               ValidityInfo `json:"validity"`
}

// ValidityInfo is a certificate's validity at the time it was described:
// a status, and a message unless it is VALID.
type ValidityInfo struct {
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

// DescribeChain describes the chain certs of the key alias at now, a
// certificate that ends within threshold being WILL_EXPIRE_SOON.
func DescribeChain(alias string, certs []*x509.Certificate, now time.Time, threshold time.Duration) ChainInfo {
	c := ChainInfo{Alias: alias, Certificates: make([]CertificateInfo, 0, len(certs))}
	for _, cert := range certs {
		c.Certificates = append(c.Certificates, describe(cert, now, threshold))
	}
	return c
}

func describe(c *x509.Certificate, now time.Time, threshold time.Duration) CertificateInfo {
	starts, ends := c.NotBefore.UTC(), c.NotAfter.UTC()
	info := CertificateInfo{Subject: c.Subject.String(), Issuer: c.Issuer.String(), SerialNumber: c.SerialNumber.Text(16),
		Version: "V" + strconv.Itoa(c.Version), SignatureAlgorithmName: javaSignatureName(c.SignatureAlgorithm),
		ValidityStarts: starts, ValidityEnds: ends, Validity: ValidityInfo{Status: Valid}}
	switch {
	case now.Before(starts):
		info.Validity = ValidityInfo{NotYetValid, "Not valid before " + instant(starts)}
	case now.After(ends):
		info.Validity = ValidityInfo{Expired, "Not valid after " + instant(ends)}
	case now.Add(threshold).After(ends):
		info.Validity = ValidityInfo{WillExpireSoon, fmt.Sprintf("Certificate will expire within threshold (%s) at %s", config.FormatJavaDuration(threshold), instant(ends))}
	}
	return info
}

// Status is the chain's status, its worst certificate's, in the order
// Spring's SslMeterBinder ranks them: EXPIRED, NOT_YET_VALID,
// WILL_EXPIRE_SOON, VALID; "" for a chain without certificates.
func (c ChainInfo) Status() string {
	rank := map[string]int{Valid: 1, WillExpireSoon: 2, NotYetValid: 3, Expired: 4}
	worst := ""
	for _, cert := range c.Certificates {
		if rank[cert.Validity.Status] > rank[worst] {
			worst = cert.Validity.Status
		}
	}
	return worst
}

// Valid reports whether every certificate of the chain is valid now
// (WILL_EXPIRE_SOON is still valid), as the ssl health indicator counts
// a chain.
func (c ChainInfo) Valid() bool {
	s := c.Status()
	return s == Valid || s == WillExpireSoon
}

// Soonest is the certificate of the chain that expires first, whose
// serial number tags the chain's ssl.chain.expiry; false for a chain
// without certificates.
func (c ChainInfo) Soonest() (CertificateInfo, bool) {
	if len(c.Certificates) == 0 {
		return CertificateInfo{}, false
	}
	soonest := c.Certificates[0]
	for _, cert := range c.Certificates[1:] {
		if cert.ValidityEnds.Before(soonest.ValidityEnds) {
			soonest = cert
		}
	}
	return soonest, true
}

// instant writes t as Java's Instant.toString does: ISO 8601 in UTC,
// with the fraction of a second only when there is one.
func instant(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// javaSignatureName is the name Java's X509Certificate.getSigAlgName
// gives a signature algorithm, so that a dashboard or a script reads
// the same name from either service; Go's own name for one Java has no
// name for.
func javaSignatureName(a x509.SignatureAlgorithm) string {
	switch a {
	case x509.MD5WithRSA:
		return "MD5withRSA"
	case x509.SHA1WithRSA:
		return "SHA1withRSA"
	case x509.SHA256WithRSA:
		return "SHA256withRSA"
	case x509.SHA384WithRSA:
		return "SHA384withRSA"
	case x509.SHA512WithRSA:
		return "SHA512withRSA"
	case x509.SHA256WithRSAPSS, x509.SHA384WithRSAPSS, x509.SHA512WithRSAPSS:
		return "RSASSA-PSS"
	case x509.DSAWithSHA1:
		return "SHA1withDSA"
	case x509.DSAWithSHA256:
		return "SHA256withDSA"
	case x509.ECDSAWithSHA1:
		return "SHA1withECDSA"
	case x509.ECDSAWithSHA256:
		return "SHA256withECDSA"
	case x509.ECDSAWithSHA384:
		return "SHA384withECDSA"
	case x509.ECDSAWithSHA512:
		return "SHA512withECDSA"
	case x509.PureEd25519:
		return "Ed25519"
	}
	return a.String()
}
