// SPDX-License-Identifier: Apache-2.0
// libpq_loader.c: libpq is opened at the first PostgreSQL catalog (dynamic_library.h), not linked.
//
// Each libpq function the catalog calls is defined here under libpq's own name and forwards to
// the loaded library, so the Swift code calls libpq as it always has. The compiler checks every
// forwarder against libpq-fe.h's declaration, and TK_DL_FIELD types the table from the same
// declarations, so no signature is written down twice. Before `tk_pq_ready` has succeeded a
// forwarder does nothing and returns a failure value (NULL, -1, CONNECTION_BAD); the catalog
// calls `tk_pq_ready` before its first libpq call, so that is never reached in practice.
#include "CPostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include <CThumbKit.h>
#include <dynamic_library.h>

#define TK_PQ_SONAME "libpq.so.5"

#define TK_PQ_ENTRY_POINTS(X)                                                                     \
    X(PQbackendPID) X(PQclear) X(PQcmdTuples) X(PQconnectdb) X(PQconninfoFree) X(PQconninfoParse) \
    X(PQconsumeInput) X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQexecPrepared) X(PQfinish)   \
    X(PQfreemem) X(PQftype) X(PQgetisnull) X(PQgetlength) X(PQgetvalue) X(PQnotifies)             \
    X(PQntuples) X(PQprepare) X(PQreset) X(PQresultErrorField) X(PQresultErrorMessage)            \
    X(PQresultStatus) X(PQsetClientEncoding) X(PQsetNoticeProcessor) X(PQsocket) X(PQstatus)      \
    X(PQtransactionStatus)

struct tk_pq_api {
    TK_PQ_ENTRY_POINTS(TK_DL_FIELD)
};

// libpq's entry points, filled once by tk_pq_load_once (never written again after that).
static struct tk_pq_api tk_pq;
static pthread_once_t tk_pq_once = PTHREAD_ONCE_INIT;
static char tk_pq_load_error[TK_ERR_LEN];
static int tk_pq_loaded;

// Fills `table` from the library `soname`: its handle, or NULL with the reason in `err`.
static void *tk_pq_fill(struct tk_pq_api *table, const char *soname, char err[TK_ERR_LEN]) {
    void *library = tk_dl_open(soname, err);
    if (library == NULL) return NULL;
    int ok = 1;
    TK_PQ_ENTRY_POINTS(TK_DL_RESOLVE)
    if (!ok) {
        dlclose(library);
        return NULL;
    }
    return library;
}

static void tk_pq_load_once(void) {
    // Never closed: the table points into the library for the rest of the process.
    tk_pq_loaded = tk_pq_fill(&tk_pq, TK_PQ_SONAME, tk_pq_load_error) != NULL;
}

int tk_pq_ready(char *err, unsigned long err_len) {
    pthread_once(&tk_pq_once, tk_pq_load_once);
    if (tk_pq_loaded) return 0;
    if (err != NULL && err_len > 0) snprintf(err, err_len, "%s", tk_pq_load_error);
    return -1;
}

int tk_pq_probe_library(const char *soname, char *err, unsigned long err_len) {
    struct tk_pq_api table;
    char reason[TK_ERR_LEN] = {0};
    void *library = tk_pq_fill(&table, soname, reason);
    if (err != NULL && err_len > 0) snprintf(err, err_len, "%s", reason);
    if (library == NULL) return -1;
    dlclose(library);
    return 0;
}

// The forwarders. `READY` is whether the table was filled (the load has happened and worked).
#define READY (pthread_once(&tk_pq_once, tk_pq_load_once), tk_pq_loaded)

int PQbackendPID(const PGconn *conn) { return READY ? tk_pq.PQbackendPID(conn) : 0; }
void PQclear(PGresult *res) {
    if (READY) tk_pq.PQclear(res);
}
char *PQcmdTuples(PGresult *res) { return READY ? tk_pq.PQcmdTuples(res) : NULL; }
PGconn *PQconnectdb(const char *conninfo) { return READY ? tk_pq.PQconnectdb(conninfo) : NULL; }
void PQconninfoFree(PQconninfoOption *options) {
    if (READY) tk_pq.PQconninfoFree(options);
}
PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg) {
    if (errmsg != NULL) *errmsg = NULL;
    return READY ? tk_pq.PQconninfoParse(conninfo, errmsg) : NULL;
}
int PQconsumeInput(PGconn *conn) { return READY ? tk_pq.PQconsumeInput(conn) : 0; }
char *PQerrorMessage(const PGconn *conn) { return READY ? tk_pq.PQerrorMessage(conn) : (char *)"libpq not loaded"; }
PGresult *PQexec(PGconn *conn, const char *query) { return READY ? tk_pq.PQexec(conn, query) : NULL; }
PGresult *PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                       const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                       int resultFormat) {
    return READY ? tk_pq.PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats,
                                      resultFormat)
                 : NULL;
}
PGresult *PQexecPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                         const int *paramLengths, const int *paramFormats, int resultFormat) {
    return READY ? tk_pq.PQexecPrepared(conn, stmtName, nParams, paramValues, paramLengths, paramFormats,
                                        resultFormat)
                 : NULL;
}
void PQfinish(PGconn *conn) {
    if (READY) tk_pq.PQfinish(conn);
}
void PQfreemem(void *ptr) {
    if (READY) tk_pq.PQfreemem(ptr);
}
Oid PQftype(const PGresult *res, int field_num) { return READY ? tk_pq.PQftype(res, field_num) : 0; }
int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    return READY ? tk_pq.PQgetisnull(res, tup_num, field_num) : 1;
}
int PQgetlength(const PGresult *res, int tup_num, int field_num) {
    return READY ? tk_pq.PQgetlength(res, tup_num, field_num) : 0;
}
char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return READY ? tk_pq.PQgetvalue(res, tup_num, field_num) : NULL;
}
PGnotify *PQnotifies(PGconn *conn) { return READY ? tk_pq.PQnotifies(conn) : NULL; }
int PQntuples(const PGresult *res) { return READY ? tk_pq.PQntuples(res) : 0; }
PGresult *PQprepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes) {
    return READY ? tk_pq.PQprepare(conn, stmtName, query, nParams, paramTypes) : NULL;
}
void PQreset(PGconn *conn) {
    if (READY) tk_pq.PQreset(conn);
}
char *PQresultErrorField(const PGresult *res, int fieldcode) {
    return READY ? tk_pq.PQresultErrorField(res, fieldcode) : NULL;
}
char *PQresultErrorMessage(const PGresult *res) {
    return READY ? tk_pq.PQresultErrorMessage(res) : (char *)"libpq not loaded";
}
ExecStatusType PQresultStatus(const PGresult *res) { return READY ? tk_pq.PQresultStatus(res) : PGRES_FATAL_ERROR; }
int PQsetClientEncoding(PGconn *conn, const char *encoding) {
    return READY ? tk_pq.PQsetClientEncoding(conn, encoding) : -1;
}
PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return READY ? tk_pq.PQsetNoticeProcessor(conn, proc, arg) : NULL;
}
int PQsocket(const PGconn *conn) { return READY ? tk_pq.PQsocket(conn) : -1; }
ConnStatusType PQstatus(const PGconn *conn) { return READY ? tk_pq.PQstatus(conn) : CONNECTION_BAD; }
PGTransactionStatusType PQtransactionStatus(const PGconn *conn) {
    return READY ? tk_pq.PQtransactionStatus(conn) : PQTRANS_UNKNOWN;
}
