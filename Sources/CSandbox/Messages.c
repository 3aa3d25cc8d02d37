#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

ssize_t photozoom_send_message(int socket, const void *bytes, size_t count, int descriptor)
{
    struct iovec part = { .iov_base = (void *)bytes, .iov_len = count };
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1 };
    union { char space[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    if (descriptor >= 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.space;
        message.msg_controllen = sizeof control.space;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
    }
    ssize_t sent;
    do { sent = sendmsg(socket, &message, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t photozoom_receive_message(int socket, void *bytes, size_t capacity, int *descriptor)
{
    *descriptor = -1;
    struct iovec part = { .iov_base = bytes, .iov_len = capacity };
    /* Room for a few descriptors, so that extra ones arrive (and are closed) rather than leak silently. */
    union { char space[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                              .msg_controllen = sizeof control.space };
    ssize_t received;
    do { received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); } while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    int refused = (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
            if (*descriptor < 0 && !refused) *descriptor = fd; else { close(fd); refused = 1; }
        }
    }
    if (refused) {
        if (*descriptor >= 0) close(*descriptor);
        *descriptor = -1;
        errno = EPROTO;
        return -1;
    }
    return received;
}
