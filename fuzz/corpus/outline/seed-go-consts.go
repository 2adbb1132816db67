// Package wire holds a record protocol's constants, declared in blocks as protocol code does.
package wire

import "time"

// TLS versions.
const (
	VersionTLS10 = 0x0301
	VersionTLS11 = 0x0302
	VersionTLS12 = 0x0303
)

type recordType uint8

// String names a record type.
func (t recordType) String() string {
	return "record"
}

// Record types, far too many to print with their values on one line.
const (
	recordTypeChangeCipherSpec recordType = 20
	recordTypeAlert            recordType = 21
	recordTypeHandshake        recordType = 22
	recordTypeApplicationData  recordType = 23
)

// Two names in one spec.
const (
	magicGNU, versionGNU     = "ustar ", " \x00"
	magicUSTAR, versionUSTAR = "ustar\x00", "00"
)

var (
	errShortRecord = errorf("short record")
	errUnknownType = errorf("unknown record type")
)

func errorf(format string) error {
	return nil
}

const maxSessionTicketLifetime = 7 * 24 * time.Hour
